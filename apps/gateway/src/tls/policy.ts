import { SecureContextOptions, TlsOptions } from 'node:tls';

/**
 * TLS 1.2 and 1.3 only, and only AEAD suites with forward secrecy: ECDHE with
 * AES-GCM or ChaCha20-Poly1305 on TLS 1.2 (ECDSA certificates, as generated, or
 * RSA ones from TLS_CERT), and TLS 1.3's own suites, all AEAD. No CBC, no SHA-1
 * MACs, no static RSA key exchange.
 */
export const TLS_POLICY: TlsOptions & SecureContextOptions = {
  minVersion: 'TLSv1.2',
  ciphers: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
  honorCipherOrder: true,
};
