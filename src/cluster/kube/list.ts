// Every object of a kind at one resourceVersion, page by page (client-go's tools/pager), for the
// reflector's lists and for `run`'s first lists, which go out before the scheduler's code loads
// (cli/commands/run_first_lists.ts): it imports nothing of the scheduler.
import type { KubeObject } from '../../api/types.js';
import { isExpired } from './errors.js';
import type { ResourceSpec } from './resources.js';
import type { RestTransport } from './rest.js';

interface ListResponse {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: KubeObject[];
}

export interface Listed {
  readonly items: KubeObject[];
  readonly resourceVersion: string;
}

const defaultListTimeoutMs = 60_000;

/**
 * Every object of a kind at one resourceVersion (client-go's pager: pages only for "" and "0",
 * which the watch cache cannot serve otherwise).
 */
export async function listAll(transport: RestTransport, spec: ResourceSpec, resourceVersion: string, o: { pageSize?: number; timeoutMs?: number; onSent?: () => void; withoutManagedFields?: boolean } = {}): Promise<Listed> {
  const timeoutMs = o.timeoutMs ?? defaultListTimeoutMs;
  const paged = resourceVersion === '' || resourceVersion === '0';
  const limit = paged ? String(o.pageSize ?? 500) : undefined;
  const items: KubeObject[] = [];
  let cont: string | undefined;
  let rv = '';
  for (;;) {
    let page: ListResponse;
    try {
      page = await transport.request<ListResponse>({
        method: 'GET',
        path: spec.path,
        query: { fieldSelector: spec.fieldSelector, resourceVersion: cont ? undefined : resourceVersion || undefined, limit, continue: cont },
        timeoutMs,
        withoutManagedFields: o.withoutManagedFields,
        // Told when the first page's request has gone out.
        ...(cont === undefined && o.onSent ? { onSent: o.onSent } : {}),
      });
    } catch (err) {
      // An expired continue token: start over with one full list, as client-go's pager does.
      if (cont === undefined || !isExpired(err)) throw err;
      const query = { fieldSelector: spec.fieldSelector, resourceVersion: resourceVersion || undefined };
      const full = await transport.request<ListResponse>({ method: 'GET', path: spec.path, query, timeoutMs, withoutManagedFields: o.withoutManagedFields });
      return { items: full.items ?? [], resourceVersion: full.metadata?.resourceVersion ?? '' };
    }
    for (const it of page.items ?? []) items.push(it);
    rv = page.metadata?.resourceVersion ?? rv;
    cont = page.metadata?.continue || undefined;
    if (!cont) break;
  }
  return { items, resourceVersion: rv };
}
