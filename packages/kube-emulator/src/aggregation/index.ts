export * from './apiService';
export * from './AggregationLayer';
export * from './authenticationConfigMap';
export * from './discoveryGroups';
export * from './proxyHeaders';
export * from './resolveServiceTarget';
