/**
 * The repair report as one self-contained HTML page: no script, no external asset (its Content
 * Security Policy allows nothing but its own inline style), charts as inline SVG. Everything a
 * log holds came from clients, so every value is escaped for the place it is written in (text
 * and attribute values alike), and no value becomes a tag, an attribute name, an id or a URL.
 */
import type { Finding, RepairReport, ToolSummary } from './report-read.js';
import { counted, findingText, headlines, ordered, outcomeLine, parameterName, percent, sentence, shareOf, sources, toolName } from './report-text.js';

/** The findings shown at the top, most frequent first. */
const HEADLINES = 12;
/** Colours of the outcomes (and of anything else an audit line names). */
const COLOURS: Readonly<Record<string, string>> = { forwarded: '#8aa4c8', repaired: '#3c9d5d', refused: '#c8553d', denied: '#7a4fa0', 'rate-limited': '#d08c2e' };
const OTHER_COLOUR = '#999999';
const BAR = 160;
const OUTCOME_BAR = 480;

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d232b}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin:2rem 0 .3rem;word-break:break-all}
.muted{color:#5c6773}table{border-collapse:collapse;width:100%;margin-top:.6rem}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e3e7ec;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:.9em;word-break:break-all}
.legend span{display:inline-block;margin-right:1rem}.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em}
li{margin:.2rem 0}`;

/** The report as an HTML page. */
export function reportHtml(report: RepairReport, generated: Date = new Date()): string {
  const tools = ordered(report);
  const top = headlines(report, HEADLINES);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>schema-coerce repair report</title>
<style>${STYLE}</style></head>
<body>
<h1>What models get wrong</h1>
<p class="muted">schema-coerce repair report, ${escape(generated.toISOString())}: ${escape(sources(report))}.</p>
${top.length === 0 ? '<p>Nothing was repaired or refused.</p>' : `<h2>In short</h2>\n<ul class="headlines">\n${top.map(({ tool, finding }) => `<li><code>${escape(parameterName(finding))}</code> ${escape(sentence(tool, finding))} <span class="muted">(${escape(toolName(tool))})</span></li>`).join('\n')}\n</ul>`}
${tools.map(({ tool, findings }) => section(tool, findings)).join('\n')}
</body></html>
`;
}

/** One tool: its outcomes as a stacked bar, its findings as a table with a bar each. */
function section(tool: ToolSummary, findings: readonly Finding[]): string {
  const most = Math.max(1, ...findings.map((finding) => finding.count));
  const rows = findings.map((finding) => {
    const share = shareOf(tool, finding);
    const fraction = share ?? finding.count / most;
    const label = share === undefined ? counted(finding.count, 'time') : `${percent(share)} of calls`;
    return `<tr><td><code>${escape(parameterName(finding))}</code></td><td>${escape(findingText(finding))}</td><td class="n">${finding.count}</td><td class="n">${escape(percent(share))}</td>`
      + `<td>${bar(fraction, finding.kind === 'repair' ? COLOURS['repaired']! : COLOURS['refused']!, label)}</td><td><code>${escape(finding.example ?? '')}</code>${finding.example === undefined ? '<span class="muted">values not recorded</span>' : ''}</td></tr>`;
  });
  return `<section class="tool">
<h2>${escape(toolName(tool))}</h2>
<p>${escape(outcomeLine(tool))}</p>
${tool.calls === 0 ? '' : outcomes(tool)}
${tool.rejection === undefined ? '' : `<p>Answered with an error, e.g.: <code>${escape(tool.rejection)}</code></p>`}
${rows.length === 0 ? '<p class="muted">Nothing repaired or refused.</p>' : `<table><thead><tr><th>parameter</th><th>finding</th><th class="n">count</th><th class="n">share of calls</th><th>chart</th><th>example</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody></table>`}
</section>`;
}

/** A tool's calls by outcome, as one stacked bar and its legend. */
function outcomes(tool: ToolSummary): string {
  let x = 0;
  const entries = [...tool.outcomes].sort((a, b) => b[1] - a[1]);
  const rects = entries.map(([outcome, count]) => {
    const width = (count / tool.calls) * OUTCOME_BAR;
    const rect = `<rect class="outcome" x="${round(x)}" y="0" width="${round(width)}" height="18" fill="${colour(outcome)}"><title>${escape(`${outcome}: ${count}`)}</title></rect>`;
    x += width;
    return rect;
  });
  const legend = entries.map(([outcome, count]) => `<span><span class="swatch" style="background:${colour(outcome)}"></span>${escape(outcome)} ${count}</span>`);
  return `<svg class="outcomes" width="${OUTCOME_BAR}" height="18" viewBox="0 0 ${OUTCOME_BAR} 18" role="img" aria-label="${escape(outcomeLine(tool))}">${rects.join('')}</svg>\n<p class="legend">${legend.join('')}</p>`;
}

/** One horizontal bar, `fraction` of its full width. */
function bar(fraction: number, fill: string, label: string): string {
  const width = round(Math.min(1, Math.max(0, fraction)) * BAR);
  return `<svg class="bar" width="${BAR}" height="12" viewBox="0 0 ${BAR} 12" role="img" aria-label="${escape(label)}"><rect x="0" y="0" width="${BAR}" height="12" fill="#eef1f4"/><rect class="value" x="0" y="0" width="${width}" height="12" fill="${fill}"/></svg>`;
}

/** An outcome's colour: one of ours, never a value from the log. */
function colour(outcome: string): string {
  return Object.hasOwn(COLOURS, outcome) ? COLOURS[outcome]! : OTHER_COLOUR;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Text for HTML text or a quoted attribute value. */
function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
