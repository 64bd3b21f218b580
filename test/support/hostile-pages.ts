/**
 * Pathological pages, shared by the page-signal tests that count their cost
 * (test/crawlee/page-signals-bounds.test.ts) and the stress run that times it
 * (test/stress/growth.stress.ts), so that both read the same shapes.
 */

/** Pages of about `size` characters that a reader of robots meta tags and nofollow links could choke on. */
export const hostilePages: [string, (size: number) => string][] = [
  ['`<a ` repeated, never closed', (size) => '<a '.repeat(size / 3)],
  ['`<meta ` repeated, never closed', (size) => '<meta '.repeat(size / 6)],
  ['robots meta tags repeated in <head>', (size) => '<head>' + '<meta name=robots content="nofollow, noindex">'.repeat(size / 46)],
  ['an unclosed comment', (size) => `<head><!--${'<meta name=robots content=nofollow>'.repeat(size / 35)}`],
  ['an unclosed script', (size) => `<head><script>${'</scrip'.repeat(size / 7)}`],
  ['a huge unclosed attribute value', (size) => `<meta name=robots content="${'x'.repeat(size)}`],
  ['a huge attribute name', (size) => `<a ${'x'.repeat(size)}=1 rel=nofollow href=/x>`],
  ['a tag with a huge number of attributes', (size) => `<a ${Array.from({ length: size / 8 }, (_, i) => `a${i}`).join(' ')}>`],
  ['elements nested deep, closed by the wrong tags', (size) => '<div>'.repeat(size / 12) + '</span>'.repeat(size / 14)],
  ['<template>s nested deep', (size) => '<template>'.repeat(size / 10)],
  ['distinct nofollow links', (size) => Array.from({ length: size / 30 }, (_, i) => `<a rel=nofollow href=/${i}>`).join('')],
  ['an attribute of entities', (size) => `<a rel=nofollow href="${'&amp;'.repeat(size / 5)}">`],
];

/** Pages of about `size` characters that come close to a signal word, and hold none. */
export const nearMissPages: [string, (size: number) => string][] = [
  ['`robot` repeated', (size) => 'robot '.repeat(size / 6)],
  ["a word's letters each doubled", (size) => 'rRoObBoOtTsS '.repeat(size / 13)],
  ["the bot's token cut short", (size) => 'HeedBo '.repeat(size / 7)],
  ['`nofollo` and `sponsore` repeated', (size) => 'nofollo sponsore '.repeat(size / 17)],
  ['`&` never followed by `#`', (size) => '&amp;&'.repeat(size / 6)],
  ['one letter', (size) => 'r'.repeat(size)],
];
