import { parseArgs } from 'node:util';
import { explainExtraction, extractBrands } from '@visibility/core/extraction';
import type { CliIo } from './io.js';

async function readStdin(stdin: AsyncIterable<string | Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const USAGE = 'Usage: visibility extract-brands [--brand NAME] [--competitors "A, B"] [--explain] < answer.txt';

/** `visibility extract-brands`: the measurements' own extractor, on one answer read from stdin. */
export async function runExtractBrands(argv: string[], io: CliIo): Promise<number> {
  let values: { brand?: string | undefined; competitors?: string | undefined; explain?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { brand: { type: 'string' }, competitors: { type: 'string' }, explain: { type: 'boolean' } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    io.stderr.write(`visibility extract-brands: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const answer = await readStdin(io.stdin);
  const competitors = values.competitors
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const options = {
    ...(values.brand !== undefined && values.brand.trim() !== '' ? { brand: values.brand.trim() } : {}),
    ...(competitors !== undefined && competitors.length > 0 ? { competitors } : {}),
  };
  if (values.explain !== true) {
    io.stdout.write(`${JSON.stringify(extractBrands(answer, options))}\n`);
    return 0;
  }
  // Every candidate with the model's decision and the features that drove it, then the result
  // as the last line (so scripts that read the last line still get the JSON array).
  const extraction = explainExtraction(answer, options);
  const lines = extraction.candidates.map((candidate) => {
    const drivers = candidate.drivers.map(([name, weight]) => `${name} ${weight >= 0 ? '+' : ''}${weight.toFixed(2)}`).join(', ');
    return `${candidate.decision.padEnd(7)} p=${candidate.probability.toFixed(2)}  ${candidate.slot.padEnd(12)} ${JSON.stringify(candidate.surface)}  [${drivers}]`;
  });
  io.stdout.write(`${lines.join('\n')}${lines.length > 0 ? '\n' : ''}# entry: makes an entry; join: only joins an entry other candidates made; dropped: not a brand\n${JSON.stringify(extraction.brands)}\n`);
  return 0;
}
