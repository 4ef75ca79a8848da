# Sourced by the benchmarks (bench/code-mode.sh, bench/cluster-bench.sh), not run by itself.
# The community terms with a larger monthly code-run quota, signed by a key made here and trusted by the benchmark's gateways
# only (AMCP_LICENSE_EXTRA_TRUSTED_KEYS), so a benchmark can warm the code-run path before it measures. Nothing
# else of the terms changes; the key is thrown away with the run.
bench_license() {
  local dir now expires signature
  command -v openssl >/dev/null || { echo "bench: openssl is needed to sign the benchmark's license" >&2; exit 1; }
  dir="$(mktemp -d)"
  openssl genpkey -algorithm ed25519 -out "$dir/key.pem" 2>/dev/null
  now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  expires="$(date -u -d '+2 days' +%Y-%m-%dT%H:%M:%SZ)"
  printf '{"edition":"community","licensee":"AMCP benchmark","issuedAt":"%s","expiresAt":"%s","features":{"monthlyCodeRuns":1000000}}' \
    "$now" "$expires" > "$dir/payload.json"
  signature="$(openssl pkeyutl -sign -inkey "$dir/key.pem" -rawin -in "$dir/payload.json" | base64 -w0)"
  export AMCP_LICENSE_EXTRA_TRUSTED_KEYS="$(openssl pkey -in "$dir/key.pem" -pubout -outform DER | base64 -w0)"
  export AMCP_LICENSE="{\"payload\":\"$(base64 -w0 < "$dir/payload.json")\",\"signature\":\"$signature\"}"
  rm -rf "$dir"
}
