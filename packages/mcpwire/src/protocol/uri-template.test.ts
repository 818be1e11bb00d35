// UriTemplate: RFC 6570 section 3.2 expansion examples, template errors, and matching (round trips,
// decoding, query order, exploded lists, non-matches, and linear time on adversarial input).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTemplate, UriTemplate, type UriTemplateVariables } from './uri-template.ts';

/** The variables every RFC 6570 section 3.2 example uses. */
const RFC_VARIABLES: UriTemplateVariables = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: undefined,
};

/** RFC 6570 sections 3.2.1 to 3.2.9, in order; `keys` expands in insertion order. */
const RFC_EXAMPLES: ReadonlyArray<readonly [string, string]> = [
  ['{count}', 'one,two,three'],
  ['{count*}', 'one,two,three'],
  ['{/count}', '/one,two,three'],
  ['{/count*}', '/one/two/three'],
  ['{;count}', ';count=one,two,three'],
  ['{;count*}', ';count=one;count=two;count=three'],
  ['{?count}', '?count=one,two,three'],
  ['{?count*}', '?count=one&count=two&count=three'],
  ['{&count*}', '&count=one&count=two&count=three'],
  // 3.2.2 Simple String Expansion
  ['{var}', 'value'],
  ['{hello}', 'Hello%20World%21'],
  ['{half}', '50%25'],
  ['O{empty}X', 'OX'],
  ['O{undef}X', 'OX'],
  ['{x,y}', '1024,768'],
  ['{x,hello,y}', '1024,Hello%20World%21,768'],
  ['?{x,empty}', '?1024,'],
  ['?{x,undef}', '?1024'],
  ['?{undef,y}', '?768'],
  ['{var:3}', 'val'],
  ['{var:30}', 'value'],
  ['{list}', 'red,green,blue'],
  ['{list*}', 'red,green,blue'],
  ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
  ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  // 3.2.3 Reserved Expansion
  ['{+var}', 'value'],
  ['{+hello}', 'Hello%20World!'],
  ['{+half}', '50%25'],
  ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['{+base}index', 'http://example.com/home/index'],
  ['O{+empty}X', 'OX'],
  ['O{+undef}X', 'OX'],
  ['{+path}/here', '/foo/bar/here'],
  ['here?ref={+path}', 'here?ref=/foo/bar'],
  ['up{+path}{var}/here', 'up/foo/barvalue/here'],
  ['{+x,hello,y}', '1024,Hello%20World!,768'],
  ['{+path,x}/here', '/foo/bar,1024/here'],
  ['{+path:6}/here', '/foo/b/here'],
  ['{+list}', 'red,green,blue'],
  ['{+list*}', 'red,green,blue'],
  ['{+keys}', 'semi,;,dot,.,comma,,'],
  ['{+keys*}', 'semi=;,dot=.,comma=,'],
  // 3.2.4 Fragment Expansion
  ['{#var}', '#value'],
  ['{#hello}', '#Hello%20World!'],
  ['{#half}', '#50%25'],
  ['foo{#empty}', 'foo#'],
  ['foo{#undef}', 'foo'],
  ['{#x,hello,y}', '#1024,Hello%20World!,768'],
  ['{#path,x}/here', '#/foo/bar,1024/here'],
  ['{#path:6}/here', '#/foo/b/here'],
  ['{#list}', '#red,green,blue'],
  ['{#list*}', '#red,green,blue'],
  ['{#keys}', '#semi,;,dot,.,comma,,'],
  ['{#keys*}', '#semi=;,dot=.,comma=,'],
  // 3.2.5 Label Expansion with Dot-Prefix
  ['{.who}', '.fred'],
  ['{.who,who}', '.fred.fred'],
  ['{.half,who}', '.50%25.fred'],
  ['www{.dom*}', 'www.example.com'],
  ['X{.var}', 'X.value'],
  ['X{.empty}', 'X.'],
  ['X{.undef}', 'X'],
  ['X{.var:3}', 'X.val'],
  ['X{.list}', 'X.red,green,blue'],
  ['X{.list*}', 'X.red.green.blue'],
  ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
  ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  ['X{.empty_keys}', 'X'],
  ['X{.empty_keys*}', 'X'],
  // 3.2.6 Path Segment Expansion
  ['{/who}', '/fred'],
  ['{/who,who}', '/fred/fred'],
  ['{/half,who}', '/50%25/fred'],
  ['{/who,dub}', '/fred/me%2Ftoo'],
  ['{/var}', '/value'],
  ['{/var,empty}', '/value/'],
  ['{/var,undef}', '/value'],
  ['{/var,x}/here', '/value/1024/here'],
  ['{/var:1,var}', '/v/value'],
  ['{/list}', '/red,green,blue'],
  ['{/list*}', '/red/green/blue'],
  ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
  ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  // 3.2.7 Path-Style Parameter Expansion
  ['{;who}', ';who=fred'],
  ['{;half}', ';half=50%25'],
  ['{;empty}', ';empty'],
  ['{;v,empty,who}', ';v=6;empty;who=fred'],
  ['{;v,bar,who}', ';v=6;who=fred'],
  ['{;x,y}', ';x=1024;y=768'],
  ['{;x,y,empty}', ';x=1024;y=768;empty'],
  ['{;x,y,undef}', ';x=1024;y=768'],
  ['{;hello:5}', ';hello=Hello'],
  ['{;list}', ';list=red,green,blue'],
  ['{;list*}', ';list=red;list=green;list=blue'],
  ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
  ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  // 3.2.8 Form-Style Query Expansion
  ['{?who}', '?who=fred'],
  ['{?half}', '?half=50%25'],
  ['{?x,y}', '?x=1024&y=768'],
  ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['{?x,y,undef}', '?x=1024&y=768'],
  ['{?var:3}', '?var=val'],
  ['{?list}', '?list=red,green,blue'],
  ['{?list*}', '?list=red&list=green&list=blue'],
  ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
  ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  // 3.2.9 Form-Style Query Continuation
  ['{&who}', '&who=fred'],
  ['{&half}', '&half=50%25'],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['{&x,y,empty}', '&x=1024&y=768&empty='],
  ['{&var:3}', '&var=val'],
  ['{&list}', '&list=red,green,blue'],
  ['{&list*}', '&list=red&list=green&list=blue'],
  ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
  ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
];

test('expands every RFC 6570 section 3.2 example', () => {
  for (const [template, expected] of RFC_EXAMPLES) {
    assert.equal(new UriTemplate(template).expand(RFC_VARIABLES), expected, template);
  }
});

test('expansion percent-encodes UTF-8 and keeps pct-encoded triplets only in reserved expansion', () => {
  const vars = { word: 'café 😀', raw: '50%2F%zz', lone: '\ud800x' };
  assert.equal(new UriTemplate('{word}').expand(vars), 'caf%C3%A9%20%F0%9F%98%80');
  assert.equal(new UriTemplate('{raw}').expand(vars), '50%252F%25zz');
  assert.equal(new UriTemplate('{+raw}').expand(vars), '50%2F%25zz');
  assert.equal(new UriTemplate('{lone}').expand(vars), '%EF%BF%BDx');
  assert.equal(
    new UriTemplate('a b{x}').expand({ x: '1' }),
    'a%20b1',
    'literals outside the URI set are encoded',
  );
});

test('prefix modifiers count characters and never split a surrogate pair or a triplet', () => {
  assert.equal(new UriTemplate('{v:2}').expand({ v: '😀😀😀' }), '%F0%9F%98%80%F0%9F%98%80');
  assert.equal(new UriTemplate('{+v:2}').expand({ v: '%2Fab' }), '%2Fa');
  assert.equal(new UriTemplate('{v:3}').expand({ v: ['abcdef'] }), 'abcdef', 'ignored for composite values');
});

test('expansion reads own properties only', () => {
  const template = new UriTemplate('{constructor}{toString}{__proto__}');
  assert.equal(template.expand({}), '');
  assert.equal(template.expand(Object.fromEntries([['__proto__', 'p']])), 'p');
});

test('malformed templates throw a TypeError naming the position', () => {
  const cases: ReadonlyArray<readonly [string, RegExp]> = [
    ['a{b', /position 1: '\{' is never closed/],
    ['a}b', /position 1: '\}' without a matching '\{'/],
    ['{a{b}}', /position 2: '\{' inside an expression/],
    ['x{}', /position 1: empty expression/],
    ['{=a}', /position 1: operator '=' is reserved/],
    ['{|a}', /position 1: operator '\|' is reserved/],
    ['{a$b}', /position 2: expected ',' or '\}' but found '\$'/],
    ['{-a}', /position 1: expected a variable name but found '-'/],
    ['{a,}', /position 3: expected a variable name but found '\}'/],
    ['{a.}', /position 2: '\.' in a variable name/],
    ['{a..b}', /position 2: '\.' in a variable name/],
    ['{a:0}', /position 2: prefix modifier must be an integer from 1 to 9999, got ':0'/],
    ['{a:10000}', /prefix modifier must be an integer from 1 to 9999, got ':10000'/],
    ['{a:}', /got ':'/],
    ['{a:3*}', /position 4: expected ',' or '\}' but found '\*'/],
    ['{a%2}', /position 2: expected ',' or '\}' but found '%'/],
    ['x'.repeat(8193), /8193 characters long; at most 8192/],
    ['{a}'.repeat(101), /position 300: more than 100 expressions/],
  ];
  for (const [template, message] of cases) {
    assert.throws(
      () => new UriTemplate(template),
      (error) => error instanceof TypeError && message.test(error.message),
      template,
    );
  }
  assert.doesNotThrow(() => new UriTemplate('{a%2Fb.c_1:9999,d*}'));
  assert.doesNotThrow(() => new UriTemplate('{a}'.repeat(100)));
});

test('variableNames lists each name once in order; toString returns the template', () => {
  const source = 'github://repos/{owner}/{repo}/issues{?state,labels*}{&owner}';
  const template = new UriTemplate(source);
  assert.deepEqual(template.variableNames, ['owner', 'repo', 'state', 'labels']);
  template.variableNames.push('mutated');
  assert.deepEqual(template.variableNames, ['owner', 'repo', 'state', 'labels']);
  assert.equal(template.toString(), source);
  assert.equal(`${template}`, source);
});

test('isTemplate tells a template from a plain URI', () => {
  assert.equal(isTemplate('test://template/{id}/data'), true);
  assert.equal(isTemplate('file:///{+path}'), true);
  assert.equal(isTemplate('file:///etc/hosts'), false);
  assert.equal(isTemplate('weird://{}'), false);
  assert.equal(isTemplate('weird://{open'), false);
});

test('match handles the MCP shapes: path segments, {+path}, queries', () => {
  assert.deepEqual(new UriTemplate('test://template/{id}/data').match('test://template/42/data'), {
    id: '42',
  });
  assert.deepEqual(new UriTemplate('file:///{+path}').match('file:///home/me/a%20b.txt'), {
    path: 'home/me/a b.txt',
  });
  const issues = new UriTemplate('github://repos/{owner}/{repo}/issues{?state,labels*}');
  assert.deepEqual(issues.match('github://repos/o/r/issues?labels=bug&state=open&labels=ui'), {
    owner: 'o',
    repo: 'r',
    state: 'open',
    labels: ['bug', 'ui'],
  });
  assert.deepEqual(issues.match('github://repos/o/r/issues'), { owner: 'o', repo: 'r' });
});

test('a simple variable never matches across "/", "?" or "#"', () => {
  const template = new UriTemplate('test://template/{id}/data');
  for (const uri of ['test://template/a/b/data', 'test://template/a?b/data', 'test://template/a#b/data']) {
    assert.equal(template.match(uri), undefined, uri);
  }
  assert.deepEqual(new UriTemplate('{+path}/data').match('a/b/data'), { path: 'a/b' });
});

test('match returns undefined for URIs the template cannot produce', () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['test://template/{id}/data', 'test://other/1/data'],
    ['test://template/{id}/data', 'test://template/1/data/extra'],
    ['test://template/{id}/data', 'TEST://template/1/data'],
    ['{var:3}', 'value'],
    ['{id}', 'a b'],
    ['{id}', 'a%zz'],
    ['{id}', '%FF'],
    ['{/a}', '/x/y'],
    ['{/a,b}', '/x/y/z'],
    ['{?q}', '?q=1&q=2'],
    ['{?q}', 'q=1'],
    ['{.ext}', 'ext'],
    ['{+path}', 'a b'],
    ['{#frag}', '#a"b'],
  ];
  for (const [template, uri] of cases)
    assert.equal(new UriTemplate(template).match(uri), undefined, `${template} ${uri}`);
});

test('match percent-decodes values and accepts unencoded non-ASCII', () => {
  assert.deepEqual(new UriTemplate('{id}').match('caf%C3%A9'), { id: 'café' });
  assert.deepEqual(new UriTemplate('{id}').match('café'), { id: 'café' });
  assert.deepEqual(new UriTemplate('{id}').match('a%2Fb%2Cc'), { id: 'a/b,c' });
  assert.deepEqual(new UriTemplate('{+path}').match('a%2Fb/c'), { path: 'a/b/c' });
  assert.deepEqual(new UriTemplate('{?q}').match('?q=hello%20world%26more'), { q: 'hello world&more' });
  assert.deepEqual(new UriTemplate('users/{email}').match('users/a@b.com'), { email: 'a@b.com' });
});

test('query parameters match in any order, optional, with unknown names ignored', () => {
  const template = new UriTemplate('search{?q,page,lang}');
  const expected = { q: 'x', page: '2', lang: 'en' };
  for (const query of ['q=x&page=2&lang=en', 'lang=en&q=x&page=2', 'page=2&lang=en&q=x']) {
    assert.deepEqual(template.match(`search?${query}`), expected, query);
  }
  assert.deepEqual(template.match('search?page=3'), { page: '3' });
  assert.deepEqual(template.match('search?utm=1&q=x'), { q: 'x' });
  assert.deepEqual(template.match('search'), {});
  assert.deepEqual(template.match('search?q=&page'), { q: '', page: '' });
  assert.deepEqual(new UriTemplate('s{?q}{&page,size}').match('s?size=9&q=a&page=1'), {
    q: 'a',
    page: '1',
    size: '9',
  });
  assert.deepEqual(new UriTemplate('s?fixed=yes{&x,y}').match('s?fixed=yes&y=2&x=1'), { x: '1', y: '2' });
  assert.deepEqual(new UriTemplate('{+path}{?q}').match('a/b?q=1'), { path: 'a/b', q: '1' });
});

test('exploded and comma lists come back as arrays', () => {
  assert.deepEqual(new UriTemplate('{/list*}').match('/red/green/blue'), { list: ['red', 'green', 'blue'] });
  assert.deepEqual(new UriTemplate('{?list*}').match('?list=red&list=green'), { list: ['red', 'green'] });
  assert.deepEqual(new UriTemplate('{?list*}').match('?list=only'), { list: ['only'] });
  assert.deepEqual(new UriTemplate('{;list*}').match(';list=a;list=b'), { list: ['a', 'b'] });
  assert.deepEqual(new UriTemplate('{?list}').match('?list=red,green'), { list: ['red', 'green'] });
  assert.deepEqual(new UriTemplate('{list}').match('red,green'), { list: ['red', 'green'] });
  assert.deepEqual(new UriTemplate('{/list*,path:4}').match('/red/green/blue/%2Ffoo'), {
    list: ['red', 'green', 'blue'],
    path: '/foo',
  });
  assert.deepEqual(new UriTemplate('{/a}{/rest*}').match('/x/y/z'), { a: 'x', rest: ['y', 'z'] });
});

test('splits between adjacent expressions are deterministic', () => {
  assert.deepEqual(new UriTemplate('{id}{.format}').match('a.b.json'), { id: 'a.b', format: 'json' });
  assert.deepEqual(new UriTemplate('{id}{.format}').match('readme'), { id: 'readme' });
  assert.deepEqual(new UriTemplate('{name}-{version}').match('my-pkg-1.0'), {
    name: 'my-pkg',
    version: '1.0',
  });
  assert.deepEqual(new UriTemplate('{name}.json').match('a.json.json'), { name: 'a.json' });
  assert.deepEqual(new UriTemplate('{/a,b}').match('/x'), { a: 'x' });
  assert.deepEqual(new UriTemplate('{/var:1,var}').match('/v/value'), { var: 'value' });
  assert.equal(new UriTemplate('{/var:1,var}').match('/x/value'), undefined);
});

test('match(expand(v)) recovers v for many templates', () => {
  const cases: ReadonlyArray<readonly [string, Record<string, string | string[]>]> = [
    ['test://template/{id}/data', { id: 'abc 123/ü,;' }],
    [
      'github://repos/{owner}/{repo}/issues{?state,labels*}',
      { owner: 'octo', repo: 'mcp.js', state: 'open', labels: ['bug', 'help wanted'] },
    ],
    ['file:///{+path}', { path: 'home/user/notes & todo.md' }],
    ['{/a,b}', { a: 'x', b: 'y' }],
    ['{/segments*}{.ext}', { segments: ['docs', 'guide'], ext: 'md' }],
    ['search{?q,page,tags*}', { q: 'a&b=c?d', page: '2', tags: ['x y', 'z'] }],
    ['{;x,y}', { x: '1024', y: '7=68' }],
    ['doc{#section}', { section: 'intro/part 1' }],
    [
      '{scheme}://{host}{/path*}{?query}',
      { scheme: 'https', host: 'example.com', path: ['a', 'b'], query: 'q' },
    ],
    ['mail://{user}@{domain}', { user: 'a.b', domain: 'example.com' }],
    ['{x}{?text}', { x: '日本', text: 'émoji 😀' }],
    ['{list}', { list: ['red', 'green'] }],
    ['www{.dom*}', { dom: ['example', 'com'] }],
    ['{.a,b}', { a: 'left', b: 'right' }],
    ['{+base}/items/{id}', { base: 'http://example.com/api', id: '7' }],
    [
      '{__proto__}/{constructor}',
      Object.fromEntries([
        ['__proto__', 'p'],
        ['constructor', 'c'],
      ]),
    ],
  ];
  for (const [source, variables] of cases) {
    const template = new UriTemplate(source);
    const uri = template.expand(variables);
    assert.deepEqual(template.match(uri), variables, `${source} -> ${uri}`);
  }
});

test('URIs over 64 KiB never match, even when the template would', () => {
  const template = new UriTemplate('file:///{+path}');
  const path = 'a/'.repeat(30_000);
  assert.deepEqual(template.match(`file:///${path}`), { path });
  assert.equal(template.match(`file:///${'a/'.repeat(50_000)}`), undefined);
});

test('adversarial URIs finish (matching is linear, no backtracking)', () => {
  // Each shape makes a backtracking regex matcher take polynomial or exponential time.
  const hundredKb = 'a,'.repeat(50_000);
  assert.equal(
    new UriTemplate('resource://{/ids*}{?tags*}/end').match(`resource:///${hundredKb}`),
    undefined,
  );

  const nearCap = 60_000;
  assert.equal(
    new UriTemplate('resource://{/ids*}{?tags*}/end').match(`resource:///${'a,'.repeat(nearCap / 2)}`),
    undefined,
  );
  assert.equal(new UriTemplate('{a}-{b}-{c}-{d}-{e}.json').match(`${'-'.repeat(nearCap)}x`), undefined);
  assert.equal(new UriTemplate('{+a}/{+b}/{+c}/{+d}?x').match(`${'/'.repeat(nearCap)}`), undefined);
  assert.deepEqual(new UriTemplate('{?a,b,c}{&d}').match(`?${'x=&'.repeat(nearCap / 3)}d=1`), { d: '1' });

  const names = Array.from({ length: 50 }, (_, i) => `v${i}`);
  const dotted = new UriTemplate(names.map((name) => `{${name}}`).join('.'));
  const matched = dotted.match(`${'.'.repeat(nearCap)}x`);
  assert.equal(matched?.['v0'], '.'.repeat(nearCap - 49));
  assert.equal(matched?.['v1'], '');
  assert.equal(matched?.['v49'], 'x');
});
