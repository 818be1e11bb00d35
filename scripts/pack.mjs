// `npm run pack [-- --out <folder>]`: every workspace package as the tarball npm would publish, built
// first, written into `packed/` (or the folder named), with the commands that install them. Until the
// packages are on npm this is how a project outside the clone gets mcpwire (README "Install").
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const FOLDERS = ['mcpwire', 'auth-server', 'server-everything', 'server-github', 'redis', 'cli'];

function parseOut(argv) {
  const index = argv.indexOf('--out');
  if (index === -1) return join(ROOT, 'packed');
  const folder = argv[index + 1];
  if (folder === undefined || folder.startsWith('-')) {
    process.stderr.write('pack: --out needs a folder, e.g. npm run pack -- --out /tmp/mcpwire-packed\n');
    process.exit(2);
  }
  return resolve(folder);
}

const out = parseOut(process.argv.slice(2));
mkdirSync(out, { recursive: true });
// The test runner's preloads (tsx, the wire check) have no business in npm's own processes.
const env = { ...process.env, NODE_OPTIONS: '' };
execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
const tarballs = {};
for (const folder of FOLDERS) {
  const text = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], {
    cwd: join(ROOT, 'packages', folder),
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [{ name, filename }] = JSON.parse(text);
  tarballs[name] = join(out, filename);
}
const quote = (path) => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`);
process.stdout.write(
  [
    `packed ${Object.keys(tarballs).length} packages into ${out}`,
    '',
    'the library, in your project:',
    `  npm install ${quote(tarballs.mcpwire)}`,
    'the command, on your PATH (with the development authorization server it loads, which needs the library):',
    `  npm install -g --allow-scripts=better-sqlite3 ${[tarballs.mcpwire, tarballs['@mcpwire/cli'], tarballs['@mcpwire/auth-server']].map(quote).join(' ')}`,
    '',
  ].join('\n'),
);
