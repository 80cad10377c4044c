export { encodeOpenApiV2Document } from './encodeOpenApiV2Document';
export {
  negotiateOpenApiV2,
  OPENAPI_V2_PROTOBUF,
  OPENAPI_V2_PROTOBUF_DEPRECATED,
  type OpenApiV2Format,
} from './negotiateOpenApiV2';
export { OpenApiV2Endpoint } from './OpenApiV2Endpoint';
export { ProtoWriter, encodeVarint } from './ProtoWriter';
