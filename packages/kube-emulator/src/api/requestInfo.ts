import { parseFieldSelector, requiredFieldValue } from './fieldSelector';
import { queryBool } from './queryBool';
import type { RequestInfo } from './types';

const API_PREFIXES = new Set(['api', 'apis']);
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const METHOD_VERBS: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** A path segment that can name an object (apimachinery path.IsValidPathSegmentName). */
function isValidPathSegmentName(name: string): boolean {
  return (
    name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%')
  );
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Derives the request attributes kube-apiserver authorizes on (k8s.io/apiserver
 * requestinfo.go NewRequestInfo, contract §3.1), from an HTTP method and a request URL.
 */
export function parseRequestInfo(method: string, url: string): RequestInfo {
  const parsed = new URL(url, 'https://localhost');
  const path = parsed.pathname;
  const nonResource: RequestInfo = {
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
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  let parts = trimmed ? trimmed.split('/').map(safeDecode) : [];
  if (parts.length < 3 || !API_PREFIXES.has(parts[0])) return nonResource;
  const prefix = parts[0];
  parts = parts.slice(1);
  let apiGroup = '';
  if (prefix === 'apis') {
    if (parts.length < 3) return nonResource;
    apiGroup = parts[0];
    parts = parts.slice(1);
  }
  const info: RequestInfo = {
    ...nonResource,
    isResourceRequest: true,
    apiGroup,
    apiVersion: parts[0],
    verb: '',
  };
  parts = parts.slice(1);
  if (SPECIAL_VERBS.has(parts[0])) {
    if (parts.length < 2) return nonResource;
    info.verb = parts[0];
    parts = parts.slice(1);
  } else {
    info.verb = METHOD_VERBS[method.toUpperCase()] ?? '';
  }
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      info.namespace = parts[1];
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]))
        parts = parts.slice(2);
    }
  }
  info.parts = parts;
  if (parts.length >= 3 && info.verb !== 'proxy') info.subresource = parts[2];
  if (parts.length >= 2) info.name = parts[1];
  if (parts.length >= 1) info.resource = parts[0];

  if (!info.name && info.verb === 'get') {
    info.verb = queryBool(parsed.searchParams.get('watch')) ? 'watch' : 'list';
    const fieldSelector = parsed.searchParams.get('fieldSelector');
    if (fieldSelector) {
      try {
        const name = requiredFieldValue(
          parseFieldSelector(fieldSelector),
          'metadata.name',
        );
        if (name && isValidPathSegmentName(name)) info.name = name;
      } catch {
        // an unparseable selector is reported by the handler, after authorization
      }
    }
  }
  if (!info.name && info.verb === 'delete') info.verb = 'deletecollection';
  return info;
}
