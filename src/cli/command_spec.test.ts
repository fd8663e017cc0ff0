import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checks, commandHelp, parseCommand, type CommandSpec } from './command_spec.js';
import { runSpec } from './commands/run_spec.js';
import { benchSpec, capacitySpec, compareSpec, explainSpec, serveSpec, simulateSpec, snapshotSpec } from './commands/specs.js';
import { runCli } from './main.js';

const declared: Record<string, CommandSpec> = { bench: benchSpec, capacity: capacitySpec, compare: compareSpec, explain: explainSpec, run: runSpec, serve: serveSpec, simulate: simulateSpec, snapshot: snapshotSpec };

/** The flags an options line of a help text names ("  -o, --output FILE  ..."). */
function helpFlags(help: string): string[] {
  const out: string[] = [];
  for (const line of help.split('\n')) {
    const m = /^ {2}(?:-[a-zA-Z], )?--([a-z][a-z0-9-]*)/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}

describe('declared commands', () => {
  for (const [name, spec] of Object.entries(declared)) {
    it(`${name}: every declared flag is in its help, and the help names no other`, () => {
      const help = commandHelp(spec);
      assert.deepEqual(helpFlags(help).sort(), spec.flags.map((f) => f.name).sort());
      for (const f of spec.flags) if (f.short) assert.match(help, new RegExp(`^ {2}-${f.short}, --${f.name}\\b`, 'm'), f.name);
    });

    it(`${name}: --help prints the declared help`, async () => {
      let out = '';
      const code = await runCli([name, '--help'], { stdout: (t) => (out += t), stderr: () => {} });
      assert.equal(code, 0);
      assert.equal(out, commandHelp(spec));
    });
  }
});

describe('the top-level help', () => {
  it('lists every declared command once, in the order of main.ts, with its summary', async () => {
    let out = '';
    const code = await runCli(['--help'], { stdout: (t) => (out += t), stderr: () => {} });
    assert.equal(code, 0);
    const listed = out.split('\n').filter((l) => /^ {2}[a-z]/.test(l));
    assert.deepEqual(listed.map((l) => l.trim().split(' ')[0]), ['simulate', 'explain', 'run', 'serve', 'capacity', 'compare', 'snapshot', 'bench']);
    for (const line of listed) {
      const spec = declared[line.trim().split(' ')[0]!]!;
      assert.ok(line.includes(`${spec.name} ${spec.summary.args}`) && line.endsWith(spec.summary.text), line);
    }
  });

  it('an unknown command is refused with the list', async () => {
    let err = '';
    const code = await runCli(['nope'], { stdout: () => {}, stderr: (t) => (err += t) });
    assert.equal(code, 2);
    assert.match(err, /^error: unknown command "nope"\n\nUsage: kube-scheduler-ts <command>/);
    assert.match(err, /^ {2}snapshot \[-o FILE\]/m);
  });

  for (const [name, spec] of Object.entries(declared)) {
    it(`${name}: its usage line starts with its name`, () => assert.ok(spec.usage.startsWith(`${spec.name} `) && spec.name === name, spec.usage));
  }
});

describe('parseCommand', () => {
  const spec = {
    name: 'x',
    summary: { args: '[arg]', text: 'A test command.' },
    usage: 'x [arg]',
    about: 'A test command.',
    flags: [
      { name: 'seed', type: 'string', value: 'N', help: 'seed', check: checks.integer },
      { name: 'output', short: 'o', type: 'string', value: 'text|json', help: 'format', check: checks.oneOf('text', 'json') },
      { name: 'tag', type: 'string', multiple: true, value: 'T', help: 'tags', check: checks.nonNegativeInteger },
      { name: 'quiet', type: 'boolean', help: 'say less' },
    ],
    maxPositionals: 1,
    tooManyPositionals: (p) => `unexpected arguments: ${p.slice(1).join(' ')}`,
  } as const satisfies CommandSpec;

  it('gives each flag its declared shape', () => {
    const { values, positionals } = parseCommand(spec, ['a', '--seed', '3', '-o', 'json', '--tag', '1', '--tag', '2', '--quiet']);
    assert.deepEqual(positionals, ['a']);
    assert.deepEqual({ ...values }, { seed: '3', output: 'json', tag: ['1', '2'], quiet: true });
  });

  const refused: { name: string; argv: string[]; want: RegExp }[] = [
    { name: 'a failed check names the flag, the reason and the value', argv: ['--seed', 'x'], want: /^--seed must be an integer, got "x"$/ },
    { name: 'a choice lists what is accepted', argv: ['-o', 'xml'], want: /^--output must be text or json, got "xml"$/ },
    { name: 'every value of a repeated flag is checked', argv: ['--tag', '1', '--tag=-2'], want: /^--tag must be a non-negative integer, got "-2"$/ },
    { name: 'too many arguments', argv: ['a', 'b'], want: /^unexpected arguments: b$/ },
    { name: 'an undeclared flag', argv: ['--nope'], want: /--nope/ },
  ];
  for (const c of refused) it(c.name, () => assert.throws(() => parseCommand(spec, c.argv), { message: c.want }));

  const pflagSpec = {
    name: 'y',
    summary: { args: '', text: 'A command with pflag spellings.' },
    usage: 'y',
    about: 'A command with pflag spellings.',
    flags: [
      { name: 'v', short: 'v', type: 'string', value: 'N', help: 'verbosity', check: checks.nonNegativeInteger },
      { name: 'lookup', type: 'boolean', pflag: true, help: 'a pflag bool' },
      { name: 'addr', type: 'string', value: 'IP', pflag: true, help: 'an address', check: (v) => (v.includes('.') ? null : `failed to parse IP: "${v}"`) },
    ],
    maxPositionals: 0,
    tooManyPositionals: (p) => `no arguments, got ${p.join(' ')}`,
  } as const satisfies CommandSpec;

  const spelled: { name: string; argv: string[]; want: Record<string, unknown> }[] = [
    { name: 'a short flag with =', argv: ['-v=3'], want: { v: '3' } },
    { name: 'a short flag with its value after it', argv: ['-v', '4'], want: { v: '4' } },
    { name: 'a bare pflag bool', argv: ['--lookup'], want: { lookup: true } },
    { name: 'a pflag bool set false, Go spelling', argv: ['--lookup=F'], want: { lookup: false } },
    { name: 'the last pflag bool given wins', argv: ['--lookup=false', '--lookup'], want: { lookup: true } },
    { name: 'past --, nothing is rewritten', argv: ['--', '-v=3'], want: {} },
  ];
  for (const c of spelled) {
    it(`pflag spellings: ${c.name}`, () => {
      const spec = c.argv[0] === '--' ? { ...pflagSpec, maxPositionals: 1 } : pflagSpec;
      assert.deepEqual({ ...parseCommand(spec, c.argv).values }, c.want);
    });
  }

  const pflagRefused: { name: string; argv: string[]; want: string }[] = [
    { name: 'a pflag bool that is not a Go bool', argv: ['--lookup=maybe'], want: 'invalid argument "maybe" for "--lookup" flag: strconv.ParseBool: parsing "maybe": invalid syntax' },
    { name: 'a pflag flag refused in pflag\'s words', argv: ['--addr', 'host'], want: 'invalid argument "host" for "--addr" flag: failed to parse IP: "host"' },
    { name: 'a short flag with = is checked as its long name', argv: ['-v=-1'], want: '--v must be a non-negative integer, got "-1"' },
  ];
  for (const c of pflagRefused) it(`pflag spellings: ${c.name}`, () => assert.throws(() => parseCommand(pflagSpec, c.argv), { message: c.want }));

  const cliRefusals: { argv: string[]; err: RegExp }[] = [
    { argv: ['simulate', '--pod', 'a'], err: /^error: Unknown option '--pod'/ },
    { argv: ['explain', '--report', 'r.html'], err: /^error: Unknown option '--report'/ },
    { argv: ['explain', '--width', '10'], err: /^error: --width must be an integer of at least 20, got "10"\n$/ },
    { argv: ['simulate', '--tie-break', 'random'], err: /^error: --tie-break must be name, got "random"\n$/ },
    { argv: ['serve', '--port', '70000'], err: /^error: --port must be a port number \(0 picks a free one\), got "70000"\n$/ },
    { argv: ['run', '--leader-elect', 'maybe'], err: /^error: invalid argument "maybe" for "--leader-elect" flag: strconv.ParseBool: parsing "maybe": invalid syntax\n$/ },
    { argv: ['run', '-v=x'], err: /^error: --v must be a non-negative integer, got "x"\n$/ },
  ];
  for (const c of cliRefusals) {
    it(`${c.argv.join(' ')} exits 2 naming the flag`, async () => {
      let err = '';
      const code = await runCli(c.argv, { stdout: () => {}, stderr: (t) => (err += t) });
      assert.equal(code, 2);
      assert.match(err, c.err);
    });
  }

  it('a bad flag of a declared command exits 2 naming it', async () => {
    let err = '';
    const code = await runCli(['compare', '--config', 'a.yaml', '--seed', 'soon'], { stdout: () => {}, stderr: (t) => (err += t) });
    assert.equal(code, 2);
    assert.equal(err, 'error: --seed must be an integer, got "soon"\n');
  });
});
