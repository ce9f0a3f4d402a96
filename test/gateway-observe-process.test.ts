/**
 * The built `schema-coerce gateway` with `--metrics` and `--audit -`: it names where the metrics
 * listen, writes one audit line per call to stdout (nothing else goes there), and, on SIGTERM,
 * every line of the calls it answered is out before it exits.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect, test } from 'vitest';
import { startGatewayProcess, stopGateways, STRICT_SERVER } from './_helpers/gateway.js';

afterEach(stopGateways);

test('--metrics names its URL, --audit - writes a line per call to stdout, SIGTERM leaves none unwritten', async () => {
  const gateway = await startGatewayProcess(['--lenient', '--metrics', '127.0.0.1:0', '--audit', '-', '--', 'python3', STRICT_SERVER]);
  let stdout = '';
  gateway.child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const metricsUrl = await new Promise<string>((resolve) => {
    const check = (): void => {
      const found = /metrics on (\S+)\n/.exec(gateway.stderr());
      if (found === null) setTimeout(check, 20);
      else resolve(found[1]!);
    };
    check();
  });
  expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  const client = new Client({ name: 'observe-process', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  for (const line of ['3', 4, '5']) await client.callTool({ name: 'get_symbol_info', arguments: { line, filePath: 'a.ts' } });
  const metrics = await (await fetch(metricsUrl)).text();
  expect(metrics).toContain('schema_coerce_gateway_calls_total{tool="get_symbol_info",outcome="repaired"} 2\n');
  expect(metrics).toContain('schema_coerce_gateway_calls_total{tool="get_symbol_info",outcome="forwarded"} 1\n');
  expect(metrics).toContain('schema_coerce_gateway_repairs_total{tool="get_symbol_info",rule="string-to-integer"} 2\n');
  expect(metrics).toContain('\nschema_coerce_gateway_children 1\n');
  await client.close();
  expect(await gateway.stop('SIGTERM')).toBe(0);
  const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { tool: string; outcome: string; changes: { rule: string }[] });
  expect(lines.map((line) => [line.outcome, line.changes.map((change) => change.rule)])).toEqual([
    ['repaired', ['string-to-integer']],
    ['forwarded', []],
    ['repaired', ['string-to-integer']],
  ]);
});
