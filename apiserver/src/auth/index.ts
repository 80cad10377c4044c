export * from './types';
export {
  DelegatingAuthenticator,
  withAuthenticatedGroup,
  type DelegatingAuthenticatorOptions,
} from './DelegatingAuthenticator';
export {
  SubjectAccessReviewAuthorizer,
  ALWAYS_ALLOWED_PATHS,
  type SubjectAccessReviewAuthorizerOptions,
} from './SubjectAccessReviewAuthorizer';
export {
  KubeSubjectAccessReviewer,
  type SubjectAccessReviewer,
} from './SubjectAccessReviewer';
export { KubeTokenReviewer, type TokenReviewer } from './TokenReviewer';
export {
  RequestHeaderConfigSource,
  StaticRequestHeaderConfig,
  kubeConfigMapReader,
  type RequestHeaderConfigProvider,
} from './RequestHeaderConfigSource';
export {
  parseRequestHeaderConfig,
  parsePemBundle,
  type RequestHeaderConfig,
  type RequestHeaderOverrides,
} from './RequestHeaderConfig';
