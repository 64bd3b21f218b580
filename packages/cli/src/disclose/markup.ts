/**
 * Text in the page and the feed: every string that is not Heed's own (a user-agent, a contact URL)
 * passes through {@link escapeMarkup}, so none of it can open a tag, close an attribute or make the
 * feed ill-formed XML.
 */

/** Characters XML 1.0 does not allow even escaped (most C0 controls, lone surrogates, U+FFFE/U+FFFF). */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` safe in HTML and XML, as text or inside a quoted attribute; what XML cannot hold becomes U+FFFD. */
export function escapeMarkup(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}
