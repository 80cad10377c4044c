export * from './types';
export * from './issueCertificate';
export * from './createCertificates';
export * from './writeCertificates';
