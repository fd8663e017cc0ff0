// What every server-side printer shares: column definitions, cells, and ages as `kubectl get`
// prints them (k8s.io/apimachinery/pkg/util/duration HumanDuration).
import type { KubeObject } from '../api/types.js';

export interface Column {
  name: string;
  type: string;
  format?: string;
  description: string;
  priority?: number;
}

/** A cell; null where a custom resource's column finds no value. */
export type Cell = string | number | boolean | null;

export interface Printer {
  columns: Column[];
  cells(o: KubeObject, now: number): Cell[];
}

export const nameColumn: Column = { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.' };
export const ageColumn: Column = { name: 'Age', type: 'string', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' };

/** Go's duration.HumanDuration, as `kubectl get` prints ages. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(seconds / 3600);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    return days === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

export function age(o: KubeObject, now: number): string {
  const t = o.metadata?.creationTimestamp;
  if (!t) return '<unknown>';
  return humanDuration(now - Date.parse(String(t)));
}
