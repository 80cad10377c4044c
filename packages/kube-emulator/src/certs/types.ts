/** A certificate and its private key, both PEM (key as PKCS#8 `PRIVATE KEY`). */
export interface PemKeyPair {
  certPem: string;
  keyPem: string;
}

/** Validity window override, used by tests to make expired or not-yet-valid certificates. */
export interface CertificateValidity {
  notBefore?: Date;
  notAfter?: Date;
}

/**
 * Every certificate the emulator needs. The three CAs are deliberately distinct, as in a
 * kubeadm cluster: a client certificate must never be accepted as a front-proxy certificate.
 */
export interface EmulatorCertificates {
  /** Signs the emulator's serving certificate (`certificate-authority-data` in kubeconfigs). */
  clusterCa: PemKeyPair;
  /** The emulator's HTTPS serving certificate (127.0.0.1, ::1, localhost, kubernetes.default.svc). */
  serving: PemKeyPair;
  /** Signs user client certificates (`client-ca-file`). */
  clientCa: PemKeyPair;
  /** Client certificate CN `admin`, O `system:masters`. */
  admin: PemKeyPair;
  /** Signs the front-proxy client certificate (`requestheader-client-ca-file`). */
  frontProxyCa: PemKeyPair;
  /** CN `front-proxy-client`, presented by the aggregation layer to extension servers. */
  frontProxyClient: PemKeyPair;
}
