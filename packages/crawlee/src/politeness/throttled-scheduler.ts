/**
 * Crawl-delay for a crawler whose request manager paces domains itself (Crawlee 4's
 * `ThrottlingRequestManager`): a delay the manager takes for an origin is its to enforce (Heed then
 * holds nothing back for it); a delay it declines (a domain it does not throttle) Heed enforces.
 */
import { CrawlDelayScheduler } from './scheduler.js';

/** A request manager that takes robots.txt crawl-delays per domain (false: it does not pace that domain). */
export interface DelayTaker {
  setCrawlDelay(url: string, delaySeconds: number): boolean;
}

export class ThrottledCrawlDelays extends CrawlDelayScheduler {
  constructor(
    private readonly maxDelaySecs: number,
    private readonly throttling: DelayTaker,
  ) {
    super(maxDelaySecs * 1000);
  }

  override setDelay(origin: string, seconds: number | undefined, now = Date.now()): void {
    const positive = seconds !== undefined && Number.isFinite(seconds) && seconds > 0;
    if (positive && this.throttling.setCrawlDelay(origin, Math.min(seconds, this.maxDelaySecs))) super.setDelay(origin, 0, now);
    else super.setDelay(origin, seconds, now);
  }
}
