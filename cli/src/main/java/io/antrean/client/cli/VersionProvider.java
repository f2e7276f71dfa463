package io.antrean.client.cli;

import picocli.CommandLine.IVersionProvider;

/** Reports the version in the jar's manifest, or that this is a development build. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = AntreanCli.class.getPackage().getImplementationVersion();
    return new String[] {"antrean " + (version == null ? "(development build)" : version)};
  }
}
