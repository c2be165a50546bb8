import { parseArgs } from 'node:util';
import { extractBrands } from '@visibility/core/extraction';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** `visibility extract-brands`: the measurements' own extractor, on one answer read from stdin. */
export async function runExtractBrands(argv: string[]): Promise<number> {
  let values: { brand?: string | undefined; competitors?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { brand: { type: 'string' }, competitors: { type: 'string' } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`visibility extract-brands: ${(error as Error).message}\nUsage: visibility extract-brands [--brand NAME] [--competitors "A, B"] < answer.txt\n`);
    return 2;
  }
  const answer = await readStdin();
  const competitors = values.competitors
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const brands = extractBrands(answer, {
    ...(values.brand !== undefined && values.brand.trim() !== '' ? { brand: values.brand.trim() } : {}),
    ...(competitors !== undefined && competitors.length > 0 ? { competitors } : {}),
  });
  process.stdout.write(`${JSON.stringify(brands)}\n`);
  return 0;
}
