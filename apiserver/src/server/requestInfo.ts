import type { RequestInfo } from '../auth/types';
import { parseFieldSelector, requiresExactMatch } from './fieldSelector';
import { queryBool } from './queryParams';

const METHOD_VERBS: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * The name a field selector pins with a `metadata.name=n` (or `==`) requirement, else ''. This is how single-object watches are authorized with resourceNames rules.
 */
function singleNameFromFieldSelector(fieldSelector: string | null): string {
  if (!fieldSelector) return '';
  let name: string | undefined;
  try {
    name = requiresExactMatch(parseFieldSelector(fieldSelector), 'metadata.name');
  } catch {
    // a bad selector is reported by the handler; for attributes it just pins nothing
    return '';
  }
  // kube only takes names that are valid path segments
  if (!name || name === '.' || name === '..' || /[/%]/.test(name)) return '';
  return name;
}

/**
 * Derives request attributes exactly as kube-apiserver's `NewRequestInfo` does (contract §3.1), so
 * RBAC rules written for kube-apiserver mean the same here.
 */
export function getRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
  const segments = path.replace(/^\/+|\/+$/g, '').split('/');
  if (segments[0] !== 'apis' && segments[0] !== 'api') return info;
  let rest = segments.slice(1);
  if (segments[0] === 'apis') {
    if (rest.length < 3) return info;
    info.apiGroup = rest[0];
    rest = rest.slice(1);
  } else if (rest.length < 2) {
    return info;
  }
  info.apiVersion = rest[0];
  rest = rest.slice(1);
  info.isResourceRequest = true;

  let verbInPath = false;
  if (rest[0] === 'watch' || rest[0] === 'proxy') {
    info.verb = rest[0];
    verbInPath = true;
    rest = rest.slice(1);
  } else {
    info.verb = METHOD_VERBS[method.toUpperCase()] ?? '';
  }

  if (rest[0] === 'namespaces') {
    if (rest.length > 1) {
      info.namespace = rest[1];
      if (rest.length > 2 && rest[2] !== 'status' && rest[2] !== 'finalize') {
        rest = rest.slice(2);
      }
    }
  }
  info.parts = rest;
  info.resource = rest[0] ?? '';
  info.name = rest[1] ?? '';
  info.subresource = rest[2] ?? '';

  if (!info.name && info.verb === 'get') {
    info.verb = queryBool(query, 'watch') ? 'watch' : 'list';
    const pinned = singleNameFromFieldSelector(query.get('fieldSelector'));
    if (pinned) info.name = pinned;
  }
  if (!info.name && info.verb === 'delete') info.verb = 'deletecollection';

  if (!verbInPath && ['list', 'watch', 'deletecollection'].includes(info.verb)) {
    const ls = query.get('labelSelector');
    const fs = query.get('fieldSelector');
    if (ls) info.labelSelector = ls;
    if (fs) info.fieldSelector = fs;
  }
  return info;
}
