/** Types of `fixture-rows.mjs` (plain JavaScript, so each runtime loads it as it is). */
export declare function runFixtureTables(
  lib: { readonly index: unknown; readonly render: unknown; readonly validate: unknown },
  tables: readonly { readonly file: string; readonly rows: readonly unknown[] }[],
): { file: string; name: string; outcome: unknown }[];
