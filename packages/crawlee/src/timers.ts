/**
 * The longest a Node.js timer waits: 2^31 - 1 ms, about 24.8 days. A longer delay fires after 1 ms
 * instead (a re-queue loop rather than a wait), so every wait the plugin sets is bounded by it.
 */
export const MAX_TIMER_MS = 2_147_483_647;
