/**
 * Signals of the document CheerioCrawler already parsed (`context.$`, built by htmlparser2): its
 * nodes walked in document order, without recursion (a page can nest a million elements deep), and
 * handed to the same collector as the streaming reader, so both read a page alike.
 */
import { isBlank, SignalCollector, yieldToEventLoop, type PageSignals } from './collector.js';

/** A node of htmlparser2's DOM (domhandler), as far as it is read here. */
export interface TreeNode {
  readonly type: string;
  readonly name?: string;
  readonly attribs?: Readonly<Record<string, string>>;
  readonly children?: readonly TreeNode[];
  readonly data?: string;
}

/** The part of Cheerio's `$` used here. */
export interface CheerioLike {
  root(): ArrayLike<TreeNode>;
}

/** Nodes visited between two turns of the event loop. */
const NODES_PER_TURN = 20_000;

/** Whether `value` looks like a Cheerio `$` loaded with a document. */
export function isCheerio(value: unknown): value is CheerioLike {
  return typeof value === 'function' && typeof (value as Partial<CheerioLike>).root === 'function';
}

/** Robots meta tags (of `<head>`) and `rel="nofollow"` links of the document loaded in `$`. */
export async function signalsFromCheerio($: CheerioLike, pageUrl: string, wantLinks: boolean): Promise<PageSignals> {
  const collector = new SignalCollector(wantLinks);
  const root = $.root()[0];
  // Each entry: a parent and the index of its next child to visit.
  const stack: { node: TreeNode; next: number }[] = root ? [{ node: root, next: 0 }] : [];
  let visited = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const child = top.node.children?.[top.next++];
    if (child === undefined) {
      stack.pop();
      if (top.node.name !== undefined && top.node !== root) collector.close(top.node.name.toLowerCase());
      continue;
    }
    if (++visited % NODES_PER_TURN === 0) await yieldToEventLoop();
    if (child.type === 'text') {
      if (collector.wantsText) collector.text(isBlank(child.data ?? ''));
    } else if (child.name !== undefined && (child.type === 'tag' || child.type === 'script' || child.type === 'style')) {
      collector.open(child.name.toLowerCase(), child.attribs ?? {});
      stack.push({ node: child, next: 0 });
    }
  }
  return collector.result(pageUrl);
}
