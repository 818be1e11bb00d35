// Properties of RFC 6570 URI templates as resource templates use them (RES-2): parsing and matching
// never throw on any input, expansions always match back, and MCP-shaped templates round trip exactly.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import fc from 'fast-check';

import { checkProperty } from '../../../../test/support/property.ts';
import { UriTemplate, type UriTemplateVariables } from './uri-template.ts';

const OPERATORS = ['', '+', '#', '.', '/', ';', '?', '&'] as const;
const isNamed = (operator: string) => operator === ';' || operator === '?' || operator === '&';

/** Text made mostly of template syntax: braces, operators, modifiers, pct-encoding, and anything else. */
const templateText = fc
  .array(
    fc.oneof(
      fc.constantFrom('{', '}', ',', '*', ':', '%', '.', '_', '=', '!', '@', '|', ...OPERATORS),
      fc.constantFrom('a', 'b', 'x1', '12', '0', '%41', '%zz', 'é', '😀', ' '),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 24 },
  )
  .map((pieces) => pieces.join(''));

/** Text made mostly of URI characters, pct-encoding (broken too), separators and anything else. */
const uriText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '/',
        '?',
        '#',
        '&',
        '=',
        ';',
        ',',
        '.',
        '-',
        '+',
        ':',
        '@',
        '%',
        '%2C',
        '%41',
        '%C3%A9',
        '%2',
      ),
      fc.constantFrom('a', 'b', 'x', '0', 'é', ' '),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 30 },
  )
  .map((pieces) => pieces.join(''));

const literal = fc.stringMatching(/^[a-z0-9:/._~-]{0,4}$/);
const modifier = fc.constantFrom('', '*', ':3', ':12');

/** A template from the RFC 6570 grammar (Level 4), with the variable names it uses in order of appearance. */
const grammarTemplate = fc
  .array(
    fc.tuple(
      literal,
      fc.constantFrom(...OPERATORS),
      fc.array(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9_]{0,2}$/), modifier), {
        minLength: 1,
        maxLength: 3,
      }),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((expressions) => {
    const source = expressions
      .map(([text, operator, specs]) => `${text}{${operator}${specs.map(([n, m]) => n + m).join(',')}}`)
      .join('');
    const names = [...new Set(expressions.flatMap(([, , specs]) => specs.map(([n]) => n)))];
    return { source, names };
  });

const value = fc.string({ unit: 'binary', maxLength: 6 });
const list = fc.array(value, { minLength: 1, maxLength: 3 });

/**
 * A template and variables in the domain where every expansion must match back (the contract of
 * `match`): each variable appears once; in a positional expression (no names in the URI) the defined
 * variables come first and all of them are defined when one is exploded; only an exploded or lone
 * variable takes a list; no prefix modifiers; and two expressions touch only when the second begins
 * with its own operator character and is not a list of the first's kind (`{a}{.b}`, `{/a}{?q,r}`).
 */
const matchableCase = fc
  .array(
    fc.tuple(
      literal,
      fc.constantFrom(...OPERATORS),
      fc.array(fc.tuple(fc.boolean(), fc.boolean(), value, list), { minLength: 1, maxLength: 3 }),
      fc.nat(),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((expressions) => {
    let source = '';
    let count = 0;
    let previous: string | undefined;
    const variables: Record<string, string | string[]> = {};
    for (const [text, operator, specs, defined] of expressions) {
      const isList = specs.length > 1 || specs.some(([isExploded]) => isExploded);
      const mustSeparate = operator === '' || operator === '+' || (operator === previous && isList);
      source += count > 0 && text === '' && mustSeparate ? '-' : text;
      source += `{${operator}${specs.map(([isExploded], i) => `v${count + i}${isExploded ? '*' : ''}`).join(',')}}`;
      const positional = !isNamed(operator);
      const definedCount = positional && specs.some(([e]) => e) ? specs.length : defined % (specs.length + 1);
      specs.forEach(([isExploded, wantsList, scalar, items], i) => {
        const isDefined = positional ? i < definedCount : wantsList || i < definedCount;
        const mayList = isExploded || specs.length === 1 || !positional;
        if (isDefined) variables[`v${count + i}`] = mayList && wantsList ? items : scalar;
      });
      count += specs.length;
      previous = operator;
    }
    return { source, variables };
  });

/**
 * What an MCP server typically registers: scheme and host, `/` segments, matrix parameters, a
 * reserved tail or a path list, a query.
 */
const mcpCase = fc
  .record({
    segments: fc.array(value, { maxLength: 3 }),
    matrix: fc.record({ v: value, os: value }, { requiredKeys: [] }),
    tail: fc.oneof(
      fc.constant(undefined),
      fc.record({
        kind: fc.constant('rest' as const),
        value: fc.string({ unit: 'binary', maxLength: 8 }).filter((s) => !/[?#%]/.test(s)),
      }),
      fc.record({ kind: fc.constant('list' as const), value: list }),
    ),
    query: fc.record({ q: value, page: value, tags: list }, { requiredKeys: [] }),
  })
  .map(({ segments, matrix, tail, query }) => {
    let source = 'test://host';
    const variables: Record<string, string | string[]> = {};
    segments.forEach((segment, i) => {
      source += `/{s${i}}`;
      variables[`s${i}`] = segment;
    });
    if (tail?.kind === 'rest') source += '/{+rest}';
    if (tail?.kind === 'list') source += '{/rest*}';
    // After a reserved tail a `;` could belong to either: matrix parameters go before it only.
    if (tail?.kind !== 'rest') {
      source += '{;v,os}';
      Object.assign(variables, matrix);
    }
    if (tail !== undefined) variables.rest = tail.value;
    source += '{?q,page,tags*}';
    Object.assign(variables, query);
    return { source, variables };
  });

function isMatchedValue(value: unknown): boolean {
  return (
    typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}

describe('URI template properties', () => {
  test('parsing any text never throws anything but a TypeError, and a template that parses keeps its text', async (t) => {
    await checkProperty(
      t,
      fc.property(templateText, (text) => {
        let template: UriTemplate;
        try {
          template = new UriTemplate(text);
        } catch (error) {
          assert.ok(error instanceof TypeError, String(error));
          return;
        }
        assert.equal(template.toString(), text);
        assert.equal(new Set(template.variableNames).size, template.variableNames.length);
      }),
    );
  });

  test('every template of the RFC 6570 grammar parses, listing each variable once, in order of appearance', async (t) => {
    await checkProperty(
      t,
      fc.property(grammarTemplate, ({ source, names }) => {
        assert.deepEqual(new UriTemplate(source).variableNames, names);
      }),
    );
  });

  test("matching any URI against any template never throws and gives only the template's variables, as strings or string lists", async (t) => {
    await checkProperty(
      t,
      fc.property(grammarTemplate, uriText, ({ source }, uri) => {
        const template = new UriTemplate(source);
        const matched = template.match(uri);
        if (matched === undefined) return;
        for (const [name, got] of Object.entries(matched)) {
          assert.ok(template.variableNames.includes(name), name);
          assert.ok(isMatchedValue(got), `${name}: ${JSON.stringify(got)}`);
        }
      }),
    );
  });

  test('every expansion matches back, and matching is idempotent: expanding what matched matches to the same variables', async (t) => {
    await checkProperty(
      t,
      fc.property(matchableCase, ({ source, variables }) => {
        const template = new UriTemplate(source);
        const uri = template.expand(variables);
        const matched = template.match(uri);
        assert.notEqual(matched, undefined, `${source} did not match its expansion ${JSON.stringify(uri)}`);
        assert.deepEqual(template.match(template.expand(matched!)), matched);
      }),
      {
        examples: [
          // Each of these expansions once failed to match (see CHANGELOG, issue 13):
          // a span chosen to end inside a pct-encoded triplet (`0%0` | `0`),
          [{ source: '{v0}0{v1}', variables: { v1: '\u0000' } }],
          // a query continuation whose leading `?` part is empty (`&v1=`),
          [{ source: '{?v0}{&v1}-{v2}', variables: { v1: [''] } }],
          // a `/` list given more items than it has variables,
          [{ source: '{/v0,v1}{/v2}/{v3}', variables: { v0: '_', v1: '0', v2: '0' } }],
          // and a list expression after another leaving it only its last item.
          [{ source: '{v0,v1}{.v2*}', variables: { v0: '', v1: '', v2: ['\u0000\u0000\u0000', ''] } }],
        ],
      },
    );
  });

  test('MCP-shaped templates round trip exactly: match(expand(v)) is v, for any values (RES-2)', async (t) => {
    await checkProperty(
      t,
      fc.property(mcpCase, ({ source, variables }) => {
        const template = new UriTemplate(source);
        assert.deepEqual(template.match(template.expand(variables as UriTemplateVariables)), variables);
      }),
      {
        examples: [
          // Found by this property: the expression before the matrix parameters took them
          // (`{/rest*}` read `/;v;os` as one item, `{s0}` read `x;v=1`).
          [
            {
              source: 'test://host{/rest*}{;v,os}{?q,page,tags*}',
              variables: { v: '', os: '', rest: [''] },
            },
          ],
          [{ source: 'test://host/{s0}{;v,os}{?q,page,tags*}', variables: { s0: 'x', v: '1', os: 'linux' } }],
        ],
      },
    );
  });
});
