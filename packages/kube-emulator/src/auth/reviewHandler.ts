import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CustomHandler, RequestInfo, UserInfo } from '../api/types';
import { StoreError } from '../store/types';
import {
  decodeReviewProtobuf,
  PROTOBUF_CONTENT_TYPE,
} from './decodeReviewProtobuf';
import {
  parseJsonObject,
  readBody,
  writeJson,
  writeStatusError,
} from './httpResponses';

/** What a review endpoint computes from the posted object and the caller. */
export type ReviewEvaluator = (
  review: Record<string, unknown>,
  caller: UserInfo,
) => Record<string, unknown>;

/**
 * A create-only, never-stored review resource (`<group>/v1/<resource>`, cluster-scoped), as
 * kube-apiserver serves TokenReview and the access reviews: POST returns 201 with the posted
 * object plus `status`; any other verb is 405. Authorization to `create` it is the pipeline's
 * job (it authorizes before calling custom handlers).
 */
export function reviewHandler(options: {
  group: string;
  resource: string;
  kind: string;
  evaluate: ReviewEvaluator;
  /** SelfSubjectReview has no spec; every other review requires one. */
  specRequired?: boolean;
}): CustomHandler {
  const { group, resource, kind, evaluate, specRequired = true } = options;
  return {
    handles: (info: RequestInfo) =>
      info.isResourceRequest &&
      info.apiGroup === group &&
      info.apiVersion === 'v1' &&
      info.resource === resource,
    async handle(
      req: IncomingMessage,
      res: ServerResponse,
      user: UserInfo,
      info: RequestInfo,
      body: Buffer | undefined,
    ) {
      try {
        if (
          info.verb !== 'create' ||
          info.name !== '' ||
          info.namespace !== ''
        ) {
          throw new StoreError(
            405,
            'MethodNotAllowed',
            'the server does not allow this method on the requested resource',
            {},
          );
        }
        const raw = await readBody(req, body);
        const review = (req.headers['content-type'] ?? '').startsWith(
          PROTOBUF_CONTENT_TYPE,
        )
          ? decodeReviewProtobuf(raw, kind)
          : parseJsonObject(raw, `${kind}.${group}`);
        const spec = review.spec;
        const hasSpec =
          typeof spec === 'object' && spec !== null && !Array.isArray(spec);
        if (specRequired && !hasSpec)
          throw new StoreError(
            400,
            'BadRequest',
            `${kind}.${group} has no spec`,
          );
        const status = evaluate(review, user);
        const metadata =
          typeof review.metadata === 'object' && review.metadata !== null
            ? review.metadata
            : {};
        writeJson(res, 201, {
          kind,
          apiVersion: `${group}/v1`,
          metadata: { ...metadata, creationTimestamp: null },
          ...(hasSpec ? { spec } : {}),
          status,
        });
      } catch (err) {
        writeStatusError(res, err);
      }
    },
  };
}

/** 422 Invalid for a review object, in kube-apiserver's message format. */
export function invalidReview(
  kind: string,
  group: string,
  field: string,
  value: unknown,
  detail: string,
): StoreError {
  return new StoreError(
    422,
    'Invalid',
    `${kind}.${group} "" is invalid: ${field}: Invalid value: ${JSON.stringify(value)}: ${detail}`,
    {
      group,
      kind,
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
          field,
        },
      ],
    },
  );
}
