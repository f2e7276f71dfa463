package io.antrean.it;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway CA and the certificates it signs, made at test time and written as PEM (the key as
 * PKCS#8) into the test's directory. No private key is ever committed.
 */
final class TestCertificates {
  private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

  /** PEM files of one certificate and its key. */
  record Pem(Path certificate, Path key) {}

  private final Path dir;
  private final KeyPair caKeys;
  private final X509Certificate ca;
  private final Path caFile;

  TestCertificates(Path dir) throws Exception {
    this.dir = dir;
    this.caKeys = keys();
    X500Name name = new X500Name("CN=antrean-test-ca");
    JcaX509v3CertificateBuilder b = builder(name, name, caKeys);
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
    b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    this.ca = sign(b, caKeys);
    this.caFile = dir.resolve("ca.pem");
    Files.writeString(caFile, pem("CERTIFICATE", ca.getEncoded()), StandardCharsets.US_ASCII);
  }

  Path caFile() {
    return caFile;
  }

  /**
   * A certificate for {@code commonName}, signed by the CA, valid for 127.0.0.1 and localhost (so
   * it serves as a coordinator's certificate and as a client's).
   */
  Pem issue(String commonName) throws Exception {
    KeyPair keys = keys();
    JcaX509v3CertificateBuilder b =
        builder(new X500Name("CN=antrean-test-ca"), new X500Name("CN=" + commonName), keys);
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
    b.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(
            new GeneralName[] {
              new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
              new GeneralName(GeneralName.dNSName, "localhost")
            }));
    X509Certificate cert = sign(b, caKeys);
    Path certFile = dir.resolve(commonName + ".pem");
    Path keyFile = dir.resolve(commonName + ".key");
    Files.writeString(certFile, pem("CERTIFICATE", cert.getEncoded()), StandardCharsets.US_ASCII);
    Files.writeString(
        keyFile, pem("PRIVATE KEY", keys.getPrivate().getEncoded()), StandardCharsets.US_ASCII);
    return new Pem(certFile, keyFile);
  }

  private static JcaX509v3CertificateBuilder builder(
      X500Name issuer, X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        BigInteger.valueOf(SERIAL.incrementAndGet()),
        Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(Duration.ofDays(2))),
        subject,
        keys.getPublic());
  }

  private static X509Certificate sign(JcaX509v3CertificateBuilder b, KeyPair signer)
      throws Exception {
    return new JcaX509CertificateConverter()
        .getCertificate(
            b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
  }

  private static KeyPair keys() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"));
    return g.generateKeyPair();
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
