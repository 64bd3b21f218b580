/** What `generate()` wrote, as `manifest.json` holds it. */
export interface BenchManifest {
  readonly version: number;
  readonly seed: number;
  readonly origin: string;
  readonly big: {
    readonly bytes: number;
    readonly rules: number;
    readonly wildcardRules: number;
    readonly anchoredRules: number;
    readonly groups: number;
    readonly sitemaps: number;
    readonly starRules: number;
  };
  readonly typical: { readonly files: number; readonly bytes: number; readonly meanBytes: number };
  readonly urls: { readonly count: number; readonly meanLength: number; readonly maxLength: number };
  readonly hostile: { readonly bytes: number; readonly rules: number };
}

export declare const GENERATOR_VERSION: number;
export declare const SEED: number;
export declare const ORIGIN: string;
/** Where the generated files live (ends with `/`). */
export declare const DATA_DIR: string;

/** Writes the benchmark data unless `manifest.json` already describes this generator's output. */
export declare function generate(options?: { force?: boolean; log?: (message: string) => void }): BenchManifest;
