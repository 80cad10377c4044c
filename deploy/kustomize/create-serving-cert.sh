#!/usr/bin/env bash
# Makes a private CA and a serving certificate for the apiserver's Service with openssl, for
# components/static-cert (clusters without cert-manager).
# Usage: create-serving-cert.sh [OUT_DIR] [SERVICE] [NAMESPACE] [DAYS]
#   defaults: components/static-cert/certs beside this script, dbaas-apiserver, dbaas-system, 3650
# Writes ca.crt, tls.crt, tls.key (the CA key is thrown away: a new pair means a new CA, and the
# component puts the new CA in the APIService caBundle together with the new Secret).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/components/static-cert/certs}"
svc="${2:-dbaas-apiserver}"
ns="${3:-dbaas-system}"
days="${4:-3650}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days "$days" \
  -keyout "$work/ca.key" -out "$out/ca.crt" -subj "/CN=${svc}-ca" \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null

# kube-apiserver verifies the name <service>.<namespace>.svc; the others serve in-cluster clients.
cat > "$work/ext.cnf" <<EXT
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=DNS:${svc}.${ns}.svc,DNS:${svc}.${ns}.svc.cluster.local,DNS:${svc}.${ns},DNS:${svc}
EXT
openssl req -newkey rsa:2048 -nodes -sha256 -keyout "$out/tls.key" -out "$work/tls.csr" \
  -subj "/CN=${svc}.${ns}.svc" 2>/dev/null
openssl x509 -req -sha256 -days "$days" -in "$work/tls.csr" -CA "$out/ca.crt" -CAkey "$work/ca.key" \
  -CAcreateserial -extfile "$work/ext.cnf" -out "$out/tls.crt" 2>/dev/null
chmod 600 "$out/tls.key"
echo "wrote $out/ca.crt, $out/tls.crt, $out/tls.key for ${svc}.${ns}.svc"
