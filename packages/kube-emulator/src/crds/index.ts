export { loadCompactCrds, compactCrdsDir } from './loadCompactCrds';
export { compareSchemas, schemaType } from './compareSchemas';
