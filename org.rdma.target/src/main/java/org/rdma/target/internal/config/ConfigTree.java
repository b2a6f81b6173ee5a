package org.rdma.target.internal.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.TargetException;

/**
 * The configured tree as the live target core follows it: the per-kind configuration components
 * hand it their specs, and targetcli waits on it until what it wrote to Config Admin is live.
 */
public interface ConfigTree {
    /** A configuration of an object was created or changed. */
    void put(String pid, Spec spec);

    /** A configuration that does not describe an object (a bad value): nothing is built from it. */
    void reject(String pid, String error);

    /** A configuration was deleted. */
    void remove(String pid);

    /** The configured tree now. */
    ConfigModel model();

    /**
     * Waits until the tree has applied the given configurations ({@code null}: deleted), as
     * Config Admin delivers them asynchronously.
     *
     * @throws TargetException {@code ETIMEDOUT} naming what is missing after {@code timeout}
     */
    void await(Map<String, Spec> expected, Duration timeout);

    /** Why the object of a configuration is not live, if it is not. */
    Optional<String> error(String pid);

    /** The fabric modules registered now, by name. */
    Map<String, FabricModule> fabricModules();

    /** Where {@code saveconfig} writes and the start restores from by default. */
    Path savefile();

    /** Writes the tree to a file in targetcli's saveconfig.json layout. */
    void saveconfig(Path file);
}
