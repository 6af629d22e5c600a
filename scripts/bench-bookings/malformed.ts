// Part 3 of the booking benchmark (scripts/bench-bookings.ts): a few hundred
// systematically broken requests (bad JSON, wrong types, invalid text,
// oversized bodies, wrong content types, cross-origin), one at a time. None
// may answer 5xx and none may create a row; the server must still take a
// valid booking afterwards.
import { Agent, type OutgoingHttpHeaders } from 'node:http';
import { eq, like, or } from 'drizzle-orm';
import { bookings } from '#db/schema.ts';
import { addDays, pacificDate } from '#lib/dates.ts';
import {
  BODY_LIMIT,
  demo,
  failures,
  forgetBookingLimits,
  jsonHeaders,
  log,
  nextClient,
  origin,
  parseJson,
  port,
  preferredDate,
  rowCounts,
  send,
  tally,
  validBody,
  withDb,
  type Answer,
} from './kit.ts';

interface BadCase {
  group: string;
  label: string;
  body?: string | Buffer;
  headers?: OutgoingHttpHeaders;
  chunked?: boolean;
  /** The status a careful server gives; a different one is reported, not failed. */
  expect: number;
}

function malformedCases(): BadCase[] {
  const cases: BadCase[] = [];
  let n = 0;
  // A valid request with one thing changed; each gets its own address, so a
  // wrongly accepted one can be found in the database.
  const base = () => validBody('bad', n++);
  const withField = (field: string, value: unknown) => ({ ...base(), [field]: value });
  const without = (...fields: string[]) => {
    const body: Record<string, unknown> = base();
    for (const field of fields) delete body[field];
    return body;
  };
  const add = (group: string, label: string, body: unknown, expect = 422, headers?: OutgoingHttpHeaders) =>
    cases.push({ group, label, body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body), expect, headers });

  // Bad JSON: not parseable at all.
  const valid = JSON.stringify(base());
  for (const text of [
    '',
    ' ',
    '{',
    '}',
    '[',
    '{"name":',
    '{"name":"Bench',
    'nul',
    'tru',
    '{"name":"a",}',
    '[1,2,]',
    "{'name':'Bench'}",
    '{name:"Bench"}',
    '{"name":"a" "email":"b"}',
    '{"a":1}{"b":2}',
    '{"a":1} x',
    'NaN',
    'Infinity',
    '-',
    '{"serviceId":01}',
    '{"serviceId":1.}',
    '{"serviceId":+1}',
    '{"serviceId":0x10}',
    '{"name":"a"/*c*/}',
    'undefined',
    '{"name":"\\x41"}',
    '{"name":"\\u12"}',
    '"unterminated',
  ])
    add('bad json', JSON.stringify(text), text, 400);
  for (const cut of [1, 10, 25, 50, 100, Math.floor(valid.length / 2), valid.length - 2, valid.length - 1])
    add('bad json', `truncated at ${cut} of ${valid.length}`, valid.slice(0, cut), 400);
  add('bad json', 'raw NUL byte inside a string', Buffer.from(`{"name":"Bench\u0000Client","email":"bench-bad-nul@example.com"}`), 400);
  add('bad json', 'raw newline inside a string', `{"name":"Bench\nClient","email":"bench-bad-nl@example.com"}`, 400);
  add('bad json', 'UTF-16 body labelled utf-16', Buffer.from(`\ufeff${valid}`, 'utf16le'), 400, {
    'Content-Type': 'application/json; charset=utf-16',
    Origin: origin,
  });
  // Valid JSON, but not an object.
  for (const text of ['null', 'true', 'false', '0', '42', '-1', '1e400', '"a string"', '""', '[]', '[{}]', `[${valid}]`, '{}'])
    add('not an object', text.length > 40 ? `${text.slice(0, 40)}...` : text, text);

  // Wrong types, field by field.
  const textFields = ['name', 'email', 'phone', 'preferredDate', 'message', 'source', 'medium', 'campaign'];
  const notText: [string, unknown][] = [
    ['number', 42],
    ['float', 1.5],
    ['boolean', true],
    ['object', { value: 'Bench' }],
    ['array', ['Bench']],
    ['empty array', []],
  ];
  for (const field of textFields) for (const [kind, value] of notText) add('wrong type', `${field}: ${kind}`, withField(field, value));
  const notId: [string, unknown][] = [
    ['numeric string', '1'],
    ['string', 'abc'],
    ['empty string', ''],
    ['boolean', true],
    ['object', { id: 1 }],
    ['array', [1]],
  ];
  for (const field of ['serviceId', 'spaId']) for (const [kind, value] of notId) add('wrong type', `${field}: ${kind}`, withField(field, value));
  for (const field of ['name', 'email']) add('wrong type', `${field}: null`, withField(field, null));

  // Missing or blank required fields.
  add('missing', 'no name', without('name'));
  add('missing', 'no email', without('email'));
  add('missing', 'neither name nor email', without('name', 'email'));
  const { name: _name, email: _email, ...rest } = base();
  add('missing', 'name and email with capitals (Name, Email)', { ...rest, Name: 'Bench Client', Email: 'bench-bad-caps@example.com' });
  for (const [label, name] of [
    ['empty', ''],
    ['spaces', '   '],
    ['tab', '\t'],
    ['newlines', '\n\r\n'],
    ['no-break space', '\u00a0'],
    ['ideographic space', '\u3000'],
    ['byte order mark', '\ufeff'],
    ['line separator', '\u2028'],
  ] as const)
    add('missing', `name is ${label}`, withField('name', name));
  add('missing', 'email is empty', withField('email', ''));
  add('missing', 'email is spaces', withField('email', '   '));

  // Invalid email addresses.
  for (const email of [
    'plainaddress',
    '@example.com',
    'bench@',
    'bench@example',
    'bench@@example.com',
    'bench@exa mple.com',
    'be nch@example.com',
    'bench@example..com',
    '.bench@example.com',
    'bench.@example.com',
    'bench..x@example.com',
    'bench@-example.com',
    'bench@example.c',
    'bench@example.com.',
    'bench@[127.0.0.1]',
    '"bench"@example.com',
    'Bench <bench@example.com>',
    'bench@example.com, other@example.com',
    'bench@example.com\r\nBcc: victim@example.com',
    'bench@example.com\nBcc: victim@example.com',
    '<script>alert(1)</script>@example.com',
    `${'a'.repeat(250)}@example.com`,
    `bench@${'a'.repeat(250)}.com`,
  ] as const)
    add('invalid email', JSON.stringify(email), withField('email', email));

  // Text at and past the limits, and bodies past the size limit.
  add('too long', 'name of 101 characters', withField('name', 'N'.repeat(101)));
  add('too long', 'name of 101 four-byte characters', withField('name', '\u{1d4b3}'.repeat(101)));
  add('too long', 'phone of 31 characters', withField('phone', '1'.repeat(31)));
  add('too long', 'message of 2,001 characters', withField('message', 'm'.repeat(2001)));
  for (const field of ['source', 'medium', 'campaign']) add('too long', `${field} of 101 characters`, withField(field, 's'.repeat(101)));
  add('too long', 'preferredDate of 41 characters', withField('preferredDate', `${preferredDate()}${' '.repeat(31)}`));
  add('too large', 'name of 100 KB', withField('name', 'N'.repeat(100_000)), 413);
  add('too large', 'message of 100 KB', withField('message', 'm'.repeat(100_000)), 413);
  const shell = JSON.stringify({ ...base(), pad: '' });
  add('too large', `body of ${BODY_LIMIT + 1} bytes`, shell.replace('"pad":""', `"pad":"${'p'.repeat(BODY_LIMIT + 1 - shell.length)}"`), 413);
  const megabyte = JSON.stringify({ ...base(), pad: 'p'.repeat(1_000_000) });
  add('too large', 'body of 1 MB', megabyte, 413);
  cases.push({ group: 'too large', label: 'body of 1 MB, chunked (no Content-Length)', body: megabyte, chunked: true, expect: 413 });
  add('too large', 'body of 1 MB of whitespace around a valid request', `${' '.repeat(1_000_000)}${JSON.stringify(base())}`, 413);

  // Wrong or missing content type.
  const good = () => JSON.stringify(base());
  for (const type of [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=----bench',
    'text/json',
    'application/xml',
    'application/jsonx',
    'json',
    '*/*',
    '',
  ] as const)
    add('content type', type ? `Content-Type: ${type}` : 'empty Content-Type', good(), 415, { 'Content-Type': type, Origin: origin });
  add('content type', 'no Content-Type', good(), 415, { Origin: origin });
  add('content type', 'form-urlencoded body', new URLSearchParams({ name: 'Bench', email: 'bench-form@example.com' }).toString(), 415, {
    'Content-Type': 'application/x-www-form-urlencoded',
    Origin: origin,
  });
  add(
    'content type',
    'multipart body',
    '------bench\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench\r\n------bench\r\nContent-Disposition: form-data; name="email"\r\n\r\nbench-multipart@example.com\r\n------bench--\r\n',
    415,
    { 'Content-Type': 'multipart/form-data; boundary=----bench', Origin: origin },
  );
  add(
    'content type',
    'multipart body labelled application/json',
    '------bench\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench\r\n------bench--\r\n',
    400,
  );

  // Text that is not text, or not allowed where it is.
  const raw = (label: string, bytes: number[], field = 'name') => {
    const before = JSON.stringify({ ...base(), [field]: 'BEFORE' }).split('BEFORE');
    add(
      'unicode',
      `${field} with raw bytes ${bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ')} (${label})`,
      Buffer.concat([Buffer.from(`${before[0]}Bench `), Buffer.from(bytes), Buffer.from(before[1]!)]),
      400,
    );
  };
  raw('UTF-8 encoded lone surrogate U+D800', [0xed, 0xa0, 0x80]);
  raw('UTF-8 encoded lone surrogate U+DFFF', [0xed, 0xbf, 0xbf]);
  raw('overlong "/"', [0xc0, 0xaf]);
  raw('truncated sequence', [0xe2, 0x82]);
  raw('byte 0xff', [0xff]);
  raw('Latin-1 "é"', [0xe9]);
  raw('UTF-8 encoded lone surrogate U+D800', [0xed, 0xa0, 0x80], 'email');
  raw('UTF-8 encoded lone surrogate U+D800', [0xed, 0xa0, 0x80], 'message');
  const escaped = (field: string, label: string, escape: string) =>
    add('unicode', `${field} with ${label} (${escape})`, JSON.stringify({ ...base(), [field]: 'BEFORE' }).replace('BEFORE', `Bench${escape}Client`));
  for (const field of ['name', 'phone', 'message', 'source', 'medium', 'campaign']) {
    escaped(field, 'a lone high surrogate', '\\ud800');
    escaped(field, 'a lone low surrogate', '\\udc00');
    escaped(field, 'surrogates in the wrong order', '\\ude00\\ud83d');
  }
  for (const field of ['name', 'phone', 'source', 'medium', 'campaign']) {
    escaped(field, 'NUL', '\\u0000');
    escaped(field, 'ESC', '\\u001b');
    escaped(field, 'DEL', '\\u007f');
  }
  for (const [label, escape] of [
    ['a line feed', '\\n'],
    ['a carriage return', '\\r'],
    ['a line separator', '\\u2028'],
    ['a paragraph separator', '\\u2029'],
  ] as const)
    escaped('name', label, escape);
  // A name must be seen: one made only of invisible characters is no name.
  for (const [label, name] of [
    ['a zero-width space', '\u200b'],
    ['zero-width characters', '\u200b\u200c\u200d\u2060'],
    ['a right-to-left override', '\u202e'],
    ['a Hangul filler', '\u3164'],
  ] as const)
    add('unicode', `name is only ${label} (${visible(name)})`, visible(JSON.stringify(withField('name', name))));
  for (const [label, email] of [
    ['emoji in the local part', 'bench\u{1f600}@example.com'],
    ['emoji as the local part', '\u{1f600}@example.com'],
    ['a four-byte letter', 'bench\u{1d4b3}@example.com'],
    ['a zero-width space', 'bench\u200b@example.com'],
    ['a zero-width joiner', 'be\u200dnch@example.com'],
    ['a right-to-left override', 'bench\u202e@example.com'],
    ['a right-to-left override in the domain', 'bench@\u202emoc.elpmaxe'],
    ['NUL', 'bench\u0000@example.com'],
    ['a lone surrogate', 'bench\ud800@example.com'],
    ['fullwidth @', 'bench\uff20example.com'],
    ['Cyrillic homoglyph TLD', 'bench@example.\u0441om'],
  ] as const)
    add('unicode', `email with ${label}`, withField('email', email));
  for (const [label, phone] of [
    ['fullwidth digits', '\uff17\uff11\uff14\uff15\uff15\uff15\uff10\uff11\uff10\uff10'],
    ['Arabic-Indic digits', '\u0667\u0661\u0664\u0665\u0665\u0665\u0660\u0661\u0660\u0660'],
    ['an emoji', '714 555 0100 \u{1f4de}'],
    ['a zero-width space', '714\u200b555\u200b0100'],
    ['letters', '714-555-CALL'],
    ['too few digits', '555-01'],
    ['too many digits', '1234567890123456'],
  ] as const)
    add('unicode', `phone with ${label}`, withField('phone', phone));

  // Dates.
  const today = pacificDate();
  for (const date of [
    '2000-01-01',
    addDays(today, -2),
    '2027-02-30',
    '2027-02-29',
    '2027-04-31',
    '2027-13-01',
    '2027-00-10',
    '2027-01-00',
    '2027-01-32',
    '2027-1-5',
    '20270105',
    '01/05/2027',
    '05.01.2027',
    'tomorrow',
    'today',
    '2027-01-05T25:00',
    '2027-01-05T12:60',
    '2027-01-05 extra',
    '+275760-09-13',
    '9999-99-99',
    '2027\u201301\u201305',
    '\uff12\uff10\uff12\uff17-01-05',
    '-001-01-01',
  ] as const)
    add('date', `preferredDate ${JSON.stringify(date)}`, withField('preferredDate', date));
  add('date', 'preferredDate as a number', withField('preferredDate', 20270105));
  add('date', 'preferredDate as an epoch', withField('preferredDate', Date.now() + 86_400_000));

  // Ids.
  for (const field of ['serviceId', 'spaId'])
    for (const [label, value] of [
      ['negative', '-1'],
      ['zero', '0'],
      ['negative zero', '-0'],
      ['a fraction', '1.5'],
      ['2^53', '9007199254740992'],
      ['1e308', '1e308'],
      ['1e400', '1e400'],
      ['unknown 999999999', '999999999'],
    ] as const)
      add('ids', `${field} ${label}`, JSON.stringify({ ...base(), [field]: 'ID' }).replace('"ID"', value));
  add('ids', 'serviceId of one spa with spaId of another', { ...base(), serviceId: demo.services[0], spaId: demo.otherSpa });
  if (demo.inactiveService !== null) add('ids', 'serviceId of an inactive service', withField('serviceId', demo.inactiveService));

  // Keys that reach for the prototype: they must not supply the missing fields.
  const missingName = without('name');
  for (const [label, text] of [
    ['__proto__ with a name', JSON.stringify(missingName).replace(/^\{/, '{"__proto__":{"name":"Polluted"},')],
    ['constructor.prototype with a name', JSON.stringify(missingName).replace(/^\{/, '{"constructor":{"prototype":{"name":"Polluted"}},')],
    ['__proto__ with every field', `{"__proto__":${JSON.stringify(base())}}`],
    ['__proto__ as an array', JSON.stringify(missingName).replace(/^\{/, '{"__proto__":[{"name":"Polluted"}],')],
    ['name as an object with __proto__', JSON.stringify(base()).replace(/"name":"[^"]*"/, '"name":{"__proto__":{"toString":"x"}}')],
    ['toString overridden', JSON.stringify(missingName).replace(/^\{/, '{"toString":"Polluted","valueOf":"Polluted",')],
  ] as const)
    add('prototype', label, text);

  // Deep nesting, inside and past the size limit.
  for (const depth of [100, 1000, 5000, 8000]) {
    add(
      'nesting',
      `message as arrays nested ${depth} deep`,
      JSON.stringify({ ...base(), message: 'NEST' }).replace('"NEST"', `${'['.repeat(depth)}${']'.repeat(depth)}`),
    );
  }
  for (const depth of [1000, 2500]) {
    add(
      'nesting',
      `name as objects nested ${depth} deep`,
      JSON.stringify({ ...base(), name: 'NEST' }).replace('"NEST"', `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
    );
  }
  add('nesting', 'arrays nested 8000 deep, unclosed', '['.repeat(8000), 400);
  add('nesting', 'arrays nested 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 413);

  // Cross-origin: a valid body from somewhere else.
  const from = (label: string, headers: OutgoingHttpHeaders) => add('origin', label, good(), 403, { 'Content-Type': 'application/json', ...headers });
  from('Origin: http://evil.example', { Origin: 'http://evil.example' });
  from('Origin: null', { Origin: 'null' });
  from('Origin: http://localhost (same machine, other host name)', { Origin: `http://localhost:${port}` });
  from('Origin with another port', { Origin: `http://127.0.0.1:${port + 1}` });
  from('Origin with https', { Origin: `https://127.0.0.1:${port}` });
  from('Origin with a trailing slash', { Origin: `${origin}/` });
  from('Sec-Fetch-Site: cross-site, no Origin', { 'Sec-Fetch-Site': 'cross-site' });
  from('Sec-Fetch-Site: same-site, no Origin', { 'Sec-Fetch-Site': 'same-site' });
  return cases;
}

/** Text with everything but printable ASCII written as \\uXXXX, so invisible characters can be read. */
const visible = (text: string) => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The bytes of a body as a printf(1) format: printable ASCII as it is, every
 * other byte as \\xNN, so `printf '<this>' | curl --data-binary @- ...` sends
 * exactly the same request.
 */
function describeBody(body: string | Buffer | undefined, limit = 400): string {
  if (body === undefined) return '(none)';
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  let text = '';
  for (const byte of bytes.subarray(0, limit)) {
    const char = String.fromCharCode(byte);
    if (char === '\\') text += '\\\\';
    else if (char === '%') text += '%%';
    else text += byte >= 0x20 && byte < 0x7f && char !== "'" ? char : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return bytes.length > limit ? `${text}... (${bytes.length} bytes)` : text;
}

export async function measureMalformed() {
  const cases = malformedCases();
  const before = rowCounts();
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const results: { c: BadCase; answer: Answer }[] = [];
  forgetBookingLimits();
  // One at a time: each answer belongs to one input, and a crash points at it.
  // Each from a client of its own: the answer is about the input, not about a limit.
  for (const c of cases) {
    const answer = await send({ agent, headers: c.headers ?? jsonHeaders(), body: c.body, chunked: c.chunked, from: nextClient() });
    results.push({ c, answer });
  }
  agent.destroy();
  const after = rowCounts();
  const created = withDb((db) =>
    db
      .select({ id: bookings.id, email: bookings.email, name: bookings.name, preferredDate: bookings.preferredDate })
      .from(bookings)
      .where(or(like(bookings.email, 'bench-bad-%'), eq(bookings.name, 'Polluted')))
      .all()
      .map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === 'string' ? visible(value) : value]))),
  );

  const byStatus = tally(results.map(({ answer }) => (answer.status ? String(answer.status) : `error ${answer.error}`)));
  const serverErrors = results.filter(({ answer }) => answer.status >= 500);
  const noAnswer = results.filter(({ answer }) => answer.status === 0);
  const accepted = results.filter(({ answer }) => answer.status >= 200 && answer.status < 300);
  const unexpected = results.filter(({ c, answer }) => answer.status !== c.expect);
  const badShape = results.filter(({ answer }) => {
    if (answer.status < 400 || answer.status >= 500) return false;
    const value = parseJson(answer.body) as { error?: { code?: unknown; message?: unknown } } | undefined;
    return typeof value?.error?.code !== 'string' || typeof value.error.message !== 'string';
  });
  const detail = ({ c, answer }: { c: BadCase; answer: Answer }) => ({
    group: c.group,
    label: c.label,
    status: answer.status || answer.error,
    expected: c.expect,
    contentType: c.headers ? (c.headers['Content-Type'] ?? '(none)') : 'application/json',
    ...(c.chunked ? { chunked: true } : {}),
    bodyAsPrintfFormat: describeBody(c.body),
    answer: answer.body.slice(0, 300),
  });

  // The server must still take a valid booking after all that.
  forgetBookingLimits();
  const control = await send({
    agent: new Agent({ keepAlive: false }),
    headers: jsonHeaders(),
    body: JSON.stringify(validBody('control', 0)),
    from: nextClient(),
  });

  const result = {
    requests: results.length,
    byGroup: tally(results.map(({ c }) => c.group)),
    byStatus,
    serverErrors: serverErrors.length,
    noAnswer: noAnswer.length,
    accepted: accepted.length,
    rowsCreated: { bookings: after.bookings - before.bookings, leads: after.leads - before.leads },
    unexpectedStatus: unexpected.length,
    errorBodyNotInTheErrorShape: badShape.length,
    validBookingAfterwards: control.status,
    findings: {
      accepted: accepted.map(detail),
      serverErrors: serverErrors.map(detail),
      noAnswer: noAnswer.map(detail),
      rowsFromMalformedRequests: created,
      unexpectedStatus: unexpected.map(detail),
      errorBodyNotInTheErrorShape: badShape.map(detail),
    },
  };
  log.info(
    `malformed: ${results.length} requests, by status ${JSON.stringify(byStatus)}; ${serverErrors.length} 5xx; rows created ${JSON.stringify(result.rowsCreated)}`,
  );
  for (const r of accepted) log.warn(`malformed: accepted (${r.answer.status}): ${r.c.group} / ${r.c.label}: ${describeBody(r.c.body, 200)}`);
  for (const r of unexpected.filter((u) => !accepted.includes(u)))
    log.warn(`malformed: ${r.c.group} / ${r.c.label}: answered ${r.answer.status || r.answer.error}, expected ${r.c.expect}`);
  const problem = (text: string) => failures.push(`malformed: ${text}`);
  if (results.length < 200) problem(`only ${results.length} cases, expected at least 200`);
  if (serverErrors.length) problem(`${serverErrors.length} answers were 5xx (${serverErrors.map((r) => r.c.label).join('; ')})`);
  if (noAnswer.length) problem(`${noAnswer.length} requests got no answer (${noAnswer.map((r) => `${r.c.label}: ${r.answer.error}`).join('; ')})`);
  if (result.rowsCreated.bookings || result.rowsCreated.leads)
    problem(`malformed requests created ${result.rowsCreated.bookings} bookings and ${result.rowsCreated.leads} leads`);
  if (accepted.length) problem(`${accepted.length} malformed requests were accepted (${accepted.map((r) => `${r.c.group} / ${r.c.label}`).join('; ')})`);
  if (control.status !== 201) problem(`a valid booking afterwards answered ${control.status || control.error}`);
  return result;
}
