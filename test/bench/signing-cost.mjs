/**
 * What signing a request costs the crawl's process (option `signature`, Web Bot Auth): the
 * signer's work per request (`RequestSigner.headersFor`: the signature base, a fresh 64-byte nonce,
 * the Ed25519 signature, the three headers), timed over many requests in one process, so the figure
 * is known far more closely than the few-percent noise of a whole crawl's CPU. Divided by a page's
 * CPU in the link-dense crawl (`npm run bench -- link-dense --signed`, where every page is one
 * signed request), it is the share of crawl CPU signing adds there.
 *
 *   npm run build && node test/bench/signing-cost.mjs [--requests=20000]
 */
import { generateKeyPair, loadSigningKey, RequestSigner } from '../../packages/manager/dist/bundle.js';

const count = Number(process.argv.find((a) => a.startsWith('--requests='))?.slice(11) ?? 20_000);
const signer = new RequestSigner({
  key: loadSigningKey(generateKeyPair().privateJwk),
  signatureAgent: 'https://heed.example/.well-known/http-message-signatures-directory',
  validitySecs: 300,
});
const urls = Array.from({ length: 64 }, (_, i) => `https://site-${i % 8}.example/page/${i}`);
// Warm: the library loads on the first signature, and V8 optimises after a few thousand.
for (let i = 0; i < 2_000; i++) signer.headersFor(urls[i % urls.length]);
const rounds = [];
for (let round = 0; round < 5; round++) {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) signer.headersFor(urls[i % urls.length]);
  const used = process.cpuUsage(start);
  rounds.push(((used.user + used.system) / count).toFixed(1));
}
const sorted = [...rounds].map(Number).sort((a, b) => a - b);
console.log(
  `signing: ${count.toLocaleString('en-US')} requests × 5 rounds: ${rounds.join(', ')} µs of CPU per signed request; median ${sorted[2]} µs`,
);
