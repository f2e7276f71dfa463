package io.antrean.coordinator.security;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.annotation.Nullable;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/** The identity name a verified client certificate carries: its subject's common name. */
public final class CertificateNames {
  private CertificateNames() {}

  /** The peer certificate's subject CN, or null without a verified client certificate. */
  @Nullable
  public static String of(@Nullable SSLSession session) {
    if (session == null) {
      return null;
    }
    Certificate[] chain;
    try {
      chain = session.getPeerCertificates();
    } catch (SSLPeerUnverifiedException e) {
      return null;
    }
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
      return null;
    }
    return commonName(leaf.getSubjectX500Principal().getName());
  }

  @Nullable
  static String commonName(String distinguishedName) {
    try {
      for (Rdn rdn : new LdapName(distinguishedName).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          return rdn.getValue().toString();
        }
      }
    } catch (InvalidNameException e) {
      return null;
    }
    return null;
  }
}
