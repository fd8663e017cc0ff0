// Fills upstream's object templates kept as YAML text (src/bench/upstream_templates.ts) as
// scheduler_perf does with text/template (operations.go getTemplateFuncs): `.Index`, `.Count`
// and the op's template parameters, and the integer helpers those templates call.
import { parse } from 'yaml';
import type { KubeObject } from '../api/types.js';
import { upstreamTemplateText } from './upstream_templates.js';
import type { TemplateContext } from './dra_templates.js';

const intFuncs: Readonly<Record<string, (a: number, b: number) => number>> = {
  AddInt: (a, b) => a + b,
  SubtractInt: (a, b) => a - b,
  MultiplyInt: (a, b) => a * b,
  DivideInt: (a, b) => Math.trunc(a / b),
  Mod: (a, b) => a % b,
};

function operand(token: string, env: TemplateContext, path: string): number | string {
  if (/^-?\d+$/.test(token)) return Number(token);
  if (!token.startsWith('.')) throw new Error(`${path}: cannot evaluate "${token}"`);
  const name = token.slice(1);
  const v = name === 'Index' ? env.index : name === 'Count' ? env.count : env.params[name];
  if (typeof v !== 'number' && typeof v !== 'string') throw new Error(`${path}: template value ${token} is not set`);
  return v;
}

/** One `{{ ... }}` action: a value, or an integer helper applied to two values. */
function action(expr: string, env: TemplateContext, path: string): string {
  const tokens = expr.trim().split(/\s+/);
  if (tokens.length === 1) return String(operand(tokens[0]!, env, path));
  const fn = intFuncs[tokens[0]!];
  if (!fn || tokens.length !== 3) throw new Error(`${path}: unsupported template action "{{${expr}}}"`);
  return String(fn(Number(operand(tokens[1]!, env, path)), Number(operand(tokens[2]!, env, path))));
}

/** Maps whose values are quantities: YAML reads `cpu: 0.35` as a number, the API as a quantity. */
const quantityMaps = new Set(['requests', 'limits', 'capacity', 'allocatable']);

function quantitiesAsStrings(v: unknown, key = ''): void {
  if (Array.isArray(v)) {
    for (const item of v) quantitiesAsStrings(item);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  const o = v as Record<string, unknown>;
  for (const [k, child] of Object.entries(o)) {
    if (quantityMaps.has(key) && typeof child === 'number') o[k] = String(child);
    else quantitiesAsStrings(child, k);
  }
}

const parsedStatic = new Map<string, KubeObject>();

/** Whether `path` names one of upstream's YAML templates. */
export function isYamlTemplate(path: string): boolean {
  return Object.hasOwn(upstreamTemplateText, path);
}

/** The object upstream's template at `path` makes for `env`; a fresh object each call. */
export function yamlTemplate(path: string, env: TemplateContext): KubeObject {
  const text = upstreamTemplateText[path];
  if (text === undefined) throw new Error(`unknown template "${path}"`);
  if (!text.includes('{{')) {
    let obj = parsedStatic.get(path);
    if (!obj) parsedStatic.set(path, (obj = parseObject(text)));
    return structuredClone(obj);
  }
  return parseObject(text.replace(/\{\{(.*?)\}\}/g, (_, expr: string) => action(expr, env, path)));
}

function parseObject(text: string): KubeObject {
  const obj = parse(text) as KubeObject;
  quantitiesAsStrings(obj);
  return obj;
}
