export interface Config {
  databases?: {
    /**
     * The clusters whose aggregated `dbaas.platform.dev` API the portal shows, reached through
     * each cluster's kube-apiserver. Same shape as the Kubernetes plugin's config cluster locator.
     */
    clusters: Array<{
      /** Unique name, used in URLs. @visibility frontend */
      name: string;
      /** Display name. @visibility frontend */
      title?: string;
      /**
       * kube-apiserver URL, e.g. https://10.0.0.1:6443. May be left out when the backend runs in
       * the cluster with its pod's service account: then KUBERNETES_SERVICE_HOST/PORT give it.
       * @visibility backend
       */
      url?: string;
      /** PEM (or base64 of PEM) of the CA that signed kube-apiserver's certificate. @visibility secret */
      caData?: string;
      /** Path of a PEM CA file, read again when it changes. @visibility backend */
      caFile?: string;
      /** Do not verify kube-apiserver's certificate (development only). @visibility backend */
      skipTLSVerify?: boolean;
      /**
       * `serviceAccount`: a bearer token, from `serviceAccountToken`, else from
       * `serviceAccountTokenFile`, else the pod's own service account
       * (/var/run/secrets/kubernetes.io/serviceaccount/token and ca.crt, read again when they
       * change), as Backstage's Kubernetes plugin does. `none`: no credentials.
       * @visibility frontend
       */
      authProvider: 'serviceAccount' | 'none';
      /** The backend's own token; it must be allowed to impersonate users and groups. @visibility secret */
      serviceAccountToken?: string;
      /**
       * A file holding the backend's token, read again whenever it changes, so a rotating
       * (bound, projected) token keeps working without a restart. @visibility backend
       */
      serviceAccountTokenFile?: string;
    }>;
    /** The catalog's database entities. */
    catalog?: {
      /**
       * Owner of the instances of a namespace that name no owner (`dbaas.platform.dev/owner`),
       * e.g. `team-a: group:default/team-a`; an instance with neither is owned by `unowned`.
       * @visibility backend
       */
      namespaceOwners?: { [namespace: string]: string };
    };
    /** How Backstage identities become Kubernetes identities for impersonation. */
    impersonation?: {
      /** Prefix of Impersonate-User, before the user entity ref (default ""). @visibility backend */
      userPrefix?: string;
      /** Prefix of each Impersonate-Group, before the ownership entity ref (default ""). @visibility backend */
      groupPrefix?: string;
    };
    /** Timeout of one call to a cluster in milliseconds (default 10000). @visibility backend */
    requestTimeoutMs?: number;
    /**
     * How long the list and an entity's instances wait for one cluster before answering without
     * it (it is then named in `errors[]`), in milliseconds (default 2000, at most
     * requestTimeoutMs). A cluster known not to answer is not waited for at all.
     * @visibility backend
     */
    clusterWaitMs?: number;
  };
}
