// A realistic stored AuditResponse (typed from core's AuditReport, so a shape change breaks the build)
// with a buyer-question map and one failed provider, plus a hostile variant and an old, sparse one.

import type { AuditReport, BuyerQuestionMap } from '@visibility/core';

export type StoredResponse = AuditReport & { id: string; createdAt: string };
type Finding = AuditReport['providerFindings'][number];
type Question = Finding['questions'][number];

export const AUDIT_ID = '6f1c2a34-9b1e-4d2f-8a77-0c5e9d3b1f20';
export const CREATED_AT = '2025-05-01T14:03:27.000Z';

const QUESTIONS = [
  'What is the best CRM for a small B2B sales team?',
  'Which CRM software integrates well with Gmail?',
  'Best CRM for startups on a budget?',
];

function question(text: string, namedIn: number, averagePosition: number | null): Question {
  return {
    question: text,
    samples: 3,
    successfulSamples: 3,
    namedIn,
    named: namedIn > 0,
    averagePosition,
    answers: [0, 1, 2].map((index) => ({
      ok: true,
      named: index < namedIn,
      position: index < namedIn ? (averagePosition === null ? null : Math.round(averagePosition)) : null,
      brands: index < namedIn ? ['Salesforce', 'HubSpot', 'Pipedrive'] : ['Salesforce', 'Pipedrive'],
    })),
  };
}

export function auditResponse(): StoredResponse {
  const openai: Finding = {
    provider: 'openai',
    model: 'gpt-4.1-mini-2025-04-14',
    score: 62,
    scoreInterval: [48, 74],
    summary: 'Named HubSpot in 7 of 9 answers (78%, 95% CI 45–94%), usually 2nd; most often named instead: Salesforce, Pipedrive.',
    mentionRate: 7 / 9,
    mentionRateInterval: [0.45, 0.94],
    samples: 9,
    successfulSamples: 9,
    failedSamples: 0,
    averagePosition: 2,
    shareOfVoice: 0.31,
    topCompetitors: [
      { name: 'Salesforce', namedInstead: 2, mentions: 9 },
      { name: 'Pipedrive', namedInstead: 2, mentions: 8 },
    ],
    questions: [question(QUESTIONS[0] as string, 3, 2), question(QUESTIONS[1] as string, 3, 2), question(QUESTIONS[2] as string, 1, 2)],
  };
  const gemini: Finding = {
    provider: 'gemini',
    model: 'gemini-2.5-flash',
    score: 30,
    scoreInterval: [12, 52],
    summary: 'Named HubSpot in 3 of 9 answers (33%, 95% CI 12–65%), usually 1st; most often named instead: Salesforce, Zoho CRM.',
    mentionRate: 3 / 9,
    mentionRateInterval: [0.12, 0.65],
    samples: 9,
    successfulSamples: 9,
    failedSamples: 0,
    averagePosition: 1,
    shareOfVoice: 0.15,
    topCompetitors: [
      { name: 'Salesforce', namedInstead: 6, mentions: 9 },
      { name: 'Zoho CRM', namedInstead: 4, mentions: 5 },
    ],
    questions: [question(QUESTIONS[0] as string, 2, 1), question(QUESTIONS[1] as string, 1, 1), question(QUESTIONS[2] as string, 0, null)],
  };
  return {
    id: AUDIT_ID,
    createdAt: CREATED_AT,
    mode: 'live',
    measurementLocale: 'en',
    categoryLocalized: 'CRM software',
    audit: {
      score: 46,
      risk: 'medium',
      brand: 'HubSpot',
      website: 'https://www.hubspot.com',
      category: 'CRM software',
      measured: true,
      scoreInterval: [35, 58],
      mentionRate: 10 / 18,
      mentionRateInterval: [0.34, 0.75],
      confidence: 'medium',
      degraded: false,
      samplesPerQuestion: 3,
      questions: 3,
      successfulSamples: 18,
      providersAsked: ['openai', 'anthropic', 'gemini'],
      providersAnswered: ['openai', 'gemini'],
    },
    providerFindings: [openai, gemini],
    providerErrors: [
      { provider: 'anthropic', model: 'claude-sonnet-4-5', reason: 'The provider was overloaded and did not answer after retries.', kind: 'overloaded', failedSamples: 9 },
    ],
    personalizedNextSteps: [
      {
        id: 'comparison-pages',
        priority: 'high',
        title: 'Publish comparison pages (HubSpot vs Salesforce)',
        why: 'Salesforce and Pipedrive were named instead of HubSpot in 8 answers.',
        how: 'Write an honest "HubSpot vs Salesforce" page with a feature table.',
      },
      { id: 'add-llms-txt', priority: 'low', title: 'Add llms.txt', why: 'No /llms.txt was found.', how: 'Serve a short markdown index at /llms.txt.' },
    ],
    productFanout: { questions: [...QUESTIONS], language: 'en' },
    categoryBenchmark: { audits: 12, averageScore: 41.5, medianScore: 39 },
    competitors: [
      { name: 'Salesforce', namedInstead: 8, mentions: 18, rank: 1, watched: false, byProvider: { openai: { namedInstead: 2, mentions: 9 }, gemini: { namedInstead: 6, mentions: 9 } } },
      { name: 'Zoho CRM', namedInstead: 4, mentions: 5, rank: 2, watched: false, byProvider: { gemini: { namedInstead: 4, mentions: 5 } } },
      { name: 'Pipedrive', namedInstead: 2, mentions: 8, rank: 3, watched: true, byProvider: { openai: { namedInstead: 2, mentions: 8 } } },
      { name: 'Copper', namedInstead: 0, mentions: 0, rank: 4, watched: true, byProvider: {} },
    ],
    degraded: false,
  };
}

type Cell = BuyerQuestionMap['rows'][number]['cells'][number];

function namedCell(provider: Cell['provider'], model: string, position: number, answer: string): Cell {
  const brands = ['Salesforce', 'HubSpot', 'Pipedrive'];
  return { provider, ok: true, model, answer, brands, named: true, position, competitors: ['Salesforce', 'Pipedrive'], namedInstead: [], answeredAt: CREATED_AT };
}

function notNamedCell(provider: Cell['provider'], model: string, instead: string[], answer: string): Cell {
  return { provider, ok: true, model, answer, brands: instead, named: false, position: null, competitors: instead, namedInstead: instead, answeredAt: CREATED_AT };
}

function failedCell(provider: Cell['provider'], message: string): Cell {
  return {
    provider,
    ok: false,
    model: null,
    answer: null,
    brands: [],
    named: false,
    position: null,
    competitors: [],
    namedInstead: [],
    failure: { kind: 'overloaded', message },
    answeredAt: CREATED_AT,
  };
}

export function buyerQuestionMap(): BuyerQuestionMap {
  const models = { openai: 'gpt-4.1-mini-2025-04-14', gemini: 'gemini-2.5-flash', anthropic: 'claude-sonnet-4-5' } as const;
  const rows: BuyerQuestionMap['rows'] = [
    {
      questionIndex: 0,
      question: QUESTIONS[0] as string,
      cells: [
        namedCell('openai', models.openai, 2, '1. Salesforce\n2. HubSpot\n3. Pipedrive'),
        namedCell('gemini', models.gemini, 1, '**HubSpot** is a great fit.'),
        failedCell('anthropic', 'The provider was overloaded.'),
      ],
      namedBy: ['openai', 'gemini'],
      won: true,
    },
    {
      questionIndex: 1,
      question: QUESTIONS[1] as string,
      cells: [
        namedCell('openai', models.openai, 3, 'Salesforce, Pipedrive and HubSpot all integrate with Gmail.'),
        notNamedCell('gemini', models.gemini, ['Salesforce', 'Zoho CRM'], 'Salesforce or Zoho CRM.'),
        failedCell('anthropic', 'The provider was overloaded.'),
      ],
      namedBy: ['openai'],
      won: true,
    },
    {
      questionIndex: 2,
      question: QUESTIONS[2] as string,
      cells: [
        notNamedCell('openai', models.openai, ['Salesforce', 'Pipedrive'], 'Try Salesforce Essentials or Pipedrive.'),
        notNamedCell('gemini', models.gemini, ['Zoho CRM'], 'Zoho CRM has a free tier.'),
        failedCell('anthropic', 'The provider was overloaded.'),
      ],
      namedBy: [],
      won: false,
    },
  ];
  return {
    auditId: AUDIT_ID,
    generation: 1,
    mode: 'live',
    brand: 'HubSpot',
    website: 'https://www.hubspot.com',
    startedAt: '2025-05-01T14:05:00.000Z',
    measuredAt: '2025-05-01T14:06:10.000Z',
    providers: [
      { provider: 'openai', model: models.openai },
      { provider: 'gemini', model: models.gemini },
      { provider: 'anthropic', model: models.anthropic },
    ],
    questions: [...QUESTIONS],
    rows,
    providerSummaries: [
      { provider: 'openai', model: models.openai, questions: 3, answered: 3, failed: 0, questionsWon: 2, winRate: 2 / 3, averagePosition: 2.5, topCompetitors: [] },
      { provider: 'gemini', model: models.gemini, questions: 3, answered: 3, failed: 0, questionsWon: 1, winRate: 1 / 3, averagePosition: 1, topCompetitors: [] },
      { provider: 'anthropic', model: models.anthropic, questions: 3, answered: 0, failed: 3, questionsWon: 0, winRate: null, averagePosition: null, topCompetitors: [] },
    ],
    summary: {
      questions: 3,
      providers: 3,
      cells: 9,
      answeredCells: 6,
      failedCells: 3,
      questionsWon: 2,
      cellsWon: 3,
      providersAnswered: ['openai', 'gemini'],
      topCompetitors: [
        { name: 'Salesforce', namedInstead: 2, mentions: 5 },
        { name: 'Zoho CRM', namedInstead: 2, mentions: 2 },
      ],
    },
  };
}

export const EVIL_BRAND = '<script>alert(1)</script>';
export const EVIL_COMPETITOR = '"><img src=x onerror=alert(1)>';
export const EVIL_ANSWER = 'Sure! </svg><script>alert(2)</script> [click](https://evil.example/x) ![x](https://evil.example/i.png) <b>bold</b>';
export const EVIL_MODEL = 'demo-</svg><script>alert(3)</script>';
export const EVIL_REASON = "</title></desc></svg><img src=x onerror=alert(4)> | # not a heading `code` & 'quotes'";

/** The fixture with hostile text wherever users, models or crawled sites supply it. */
export function hostileResponse(): StoredResponse {
  const response = auditResponse();
  response.mode = 'demo';
  response.audit.brand = EVIL_BRAND;
  response.audit.category = `CRM ${EVIL_COMPETITOR}`;
  response.audit.website = 'javascript:alert(1)';
  response.categoryLocalized = `CRM | ${EVIL_ANSWER}`;
  for (const finding of response.providerFindings) {
    finding.model = EVIL_MODEL;
    finding.summary = `Named ${EVIL_BRAND} rarely; instead ${EVIL_COMPETITOR}. ${EVIL_ANSWER}`;
    finding.topCompetitors = [{ name: EVIL_COMPETITOR, namedInstead: 5, mentions: 6 }];
  }
  for (const failure of response.providerErrors) {
    failure.model = EVIL_MODEL;
    failure.reason = EVIL_REASON;
  }
  response.competitors = response.competitors.map((competitor, index) => ({ ...competitor, name: index === 0 ? EVIL_COMPETITOR : `${EVIL_ANSWER} #${index}` }));
  response.personalizedNextSteps = [{ id: 'x', priority: 'high', title: `# ${EVIL_BRAND}`, why: EVIL_ANSWER, how: `- ${EVIL_REASON}` }];
  response.productFanout = { questions: [`${EVIL_ANSWER}?`], language: 'en' };
  return response;
}

export function hostileMap(): BuyerQuestionMap {
  const map = buyerQuestionMap();
  map.brand = EVIL_BRAND;
  map.providers = map.providers.map((provider) => ({ ...provider, model: EVIL_MODEL }));
  map.rows = map.rows.map((row) => ({
    ...row,
    question: `${EVIL_ANSWER} ${row.question}`,
    cells: row.cells.map((cell) =>
      cell.ok
        ? { ...cell, model: EVIL_MODEL, answer: EVIL_ANSWER, namedInstead: cell.named ? [] : [EVIL_COMPETITOR, '`tick` | pipe'] }
        : { ...cell, failure: { kind: 'unexpected', message: EVIL_REASON } },
    ),
  }));
  return map;
}

/** A response as an early version stored it: the spec's contract fields only. */
export function oldResponse(): Record<string, unknown> {
  return {
    id: AUDIT_ID,
    createdAt: CREATED_AT,
    audit: { score: 55, risk: 'medium', brand: 'Acme', website: 'https://acme.example', category: 'Project management' },
    providerFindings: [
      { provider: 'openai', score: 61, summary: 'Named Acme in 5 of 9 answers.' },
      { provider: 'gemini', score: 49, summary: 'Named Acme in 4 of 9 answers.', topCompetitors: [{ name: 'Asana', mentions: 7 }] },
    ],
  };
}
