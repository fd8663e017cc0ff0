// Loading a KubeSchedulerConfiguration file: parse YAML or JSON, decode strictly, default, validate
// (cmd/kube-scheduler/app/options/configfile.go loadConfigFromFile, scheme strict decoding).
import { readFileSync } from 'node:fs';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { childPath, indexPath, type FieldError } from '../api/field_errors.js';
import { setDefaults } from './defaults.js';
import { ConfigError, type ConfigIssue } from './errors.js';
import type { PluginCatalog } from './plugin_catalog.js';
import { decodeConfiguration } from './schema.js';
import type { DefaultedConfiguration } from './types.js';
import { validateConfiguration, validatePluginReferences } from './validate.js';

interface Position {
  line: number;
  column: number;
}

interface ParsedSource {
  value: unknown;
  /** Where each field path starts in the source, for pointing at problems. */
  positions: Map<string, Position>;
  errors: ConfigIssue[];
}

/** Walks the YAML tree recording field positions and reporting duplicate keys (strict decoding). */
function walk(node: unknown, path: string, lc: LineCounter, out: ParsedSource): void {
  if (isAlias(node)) return;
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
      if (key === '<<') continue; // YAML merge key, resolved when converting to JS
      const p = childPath(path, key);
      const at = keyNode?.range ? lc.linePos(keyNode.range[0]) : undefined;
      const pos = at ? { line: at.line, column: at.col } : undefined;
      if (seen.has(key)) {
        out.errors.push({ path: p, message: `duplicate field ${JSON.stringify(key)}`, ...pos });
      } else {
        seen.add(key);
        if (pos) out.positions.set(p, pos);
      }
      walk(pair.value, p, lc, out);
    }
    return;
  }
  if (isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const item = node.items[i] as Node | null;
      const p = indexPath(path, i);
      if (item?.range) {
        const at = lc.linePos(item.range[0]);
        out.positions.set(p, { line: at.line, column: at.col });
      }
      walk(item, p, lc, out);
    }
  }
}

/**
 * Parses YAML (JSON is YAML too) the way the Go scheme reads it: YAML 1.1 scalars (yes/no are
 * booleans, 010 is octal), merge keys, and duplicate keys reported as errors.
 */
function parseSource(text: string): ParsedSource {
  const lc = new LineCounter();
  const doc = parseDocument(text, {
    version: '1.1',
    // go-yaml has no sexagesimal numbers: "1:30" stays a string.
    customTags: (tags) => tags.filter((t) => typeof t === 'string' || !('format' in t) || t.format !== 'TIME'),
    merge: true,
    uniqueKeys: false,
    lineCounter: lc,
    prettyErrors: true,
  });
  const out: ParsedSource = { value: undefined, positions: new Map(), errors: [] };
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const firstLine = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      const at = e.linePos?.[0];
      out.errors.push({ path: '', message: `yaml: ${firstLine}`, ...(at ? { line: at.line, column: at.col } : {}) });
    }
    return out;
  }
  walk(doc.contents, '', lc, out);
  try {
    out.value = doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    out.errors.push({ path: '', message: `yaml: ${err instanceof Error ? err.message : String(err)}` });
  }
  return out;
}

function withPositions(errors: readonly FieldError[], positions: ReadonlyMap<string, Position> | undefined): ConfigIssue[] {
  return errors.map((e) => {
    const pos = positions?.get(e.path);
    return pos ? { path: e.path, message: e.message, line: pos.line, column: pos.column } : e;
  });
}

function fromValue(value: unknown, source: string, registry: PluginCatalog, positions?: ReadonlyMap<string, Position>): DefaultedConfiguration {
  const decoded = decodeConfiguration(value, registry);
  if (decoded.errors.length > 0) throw new ConfigError(source, withPositions(decoded.errors, positions));

  const errors: FieldError[] = validatePluginReferences(decoded.config, registry);
  const config = setDefaults(decoded.config, registry, errors);
  errors.push(...validateConfiguration(config, registry));
  if (errors.length > 0) throw new ConfigError(source, withPositions(errors, positions));
  return config;
}

/**
 * Decodes, defaults and validates a configuration already parsed into plain values (e.g. the
 * `config:` of a scenario). Throws a ConfigError naming `source` with every problem found.
 */
export function configFromObject(value: unknown, source: string, registry: PluginCatalog): DefaultedConfiguration {
  return fromValue(value, source, registry);
}

/** Parses YAML or JSON text, then decodes, defaults and validates it; throws a ConfigError. */
export function parseConfig(text: string, source: string, registry: PluginCatalog): DefaultedConfiguration {
  const parsed = parseSource(text);
  if (parsed.errors.length > 0) throw new ConfigError(source, parsed.errors);
  return fromValue(parsed.value, source, registry, parsed.positions);
}

/** Reads and loads a configuration file; unreadable files are ConfigErrors too. */
export function loadConfigFile(path: string, registry: PluginCatalog): DefaultedConfiguration {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message;
    throw new ConfigError(path, [{ path: '', message: `open ${path}: ${reason}` }]);
  }
  return parseConfig(text, path, registry);
}
