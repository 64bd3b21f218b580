import type { FetchOutcome } from '@heed/manager/internal';

export declare function okFetchOutcome(origin: string, body: Uint8Array, now?: number): FetchOutcome;
