package org.rdma.target.internal.shell;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.rdma.target.internal.config.ConfigStore;
import org.rdma.target.internal.config.ConfigTree;
import org.rdma.target.internal.config.Pids;

/**
 * {@code targetcli [PATH] COMMAND [PARAMETERS]}: LIO's targetcli, one command line at a time, as
 * {@code targetcli /backstores/fileio create disk0 /tmp/disk0.img 1G} runs from a shell:
 *
 * <pre>
 * g! targetcli /backstores/ramdisk create r0 64M
 * Created ramdisk r0 with size 64M.
 * g! targetcli /iscsi create iqn.2003-01.org.example:t1
 * g! targetcli /iscsi/iqn.2003-01.org.example:t1/tpg1/luns create /backstores/ramdisk/r0
 * g! targetcli ls
 * </pre>
 *
 * Scope {@code rdma} as the platform's other commands, so {@code targetcli} runs unqualified in
 * the embedded runtime and in Karaf. Its global preferences are the singleton configuration
 * {@code org.rdma.target.targetcli} ({@code set global ...}). Errors name the errno: ENOENT for
 * a path or object that does not exist, EEXIST, EINVAL for a bad size, name, attribute or
 * parameter, EBUSY for a storage object a LUN uses. The work is {@link Targetcli}'s and
 * {@link NodeCommands}'; this class only hands it the session's output. One command runs at a
 * time, as targetcli's lock file makes it.
 */
@Component(service = TargetcliCommand.class, configurationPid = Pids.TARGETCLI,
        property = {"osgi.command.scope=rdma", "osgi.command.function=targetcli"})
@Designate(ocd = TargetcliCommand.Globals.class)
public class TargetcliCommand {
    /** targetcli's global preferences this target honours ({@code set global NAME=VALUE}). */
    @ObjectClassDefinition(name = "targetcli", description = "targetcli's global preferences (set global ...).")
    public @interface Globals {
        @AttributeDefinition(name = "Default portal", description = "/iscsi create adds a portal on 0.0.0.0:3260")
        boolean auto_add_default_portal() default true;

        @AttributeDefinition(name = "Mapped LUNs", description = "New LUNs and ACLs map every LUN to every ACL")
        boolean auto_add_mapped_luns() default true;

        @AttributeDefinition(name = "Enable TPGs", description = "New TPGs are enabled")
        boolean auto_enable_tpgt() default true;
    }

    private final ConfigTree tree;
    private final ConfigStore store;

    @Activate
    public TargetcliCommand(@Reference ConfigTree tree, @Reference ConfigurationAdmin cm) {
        this.tree = tree;
        this.store = new ConfigStore(cm);
    }

    /** The preferences are read from Config Admin at each command; nothing to redo. */
    @Modified
    void modified() {
    }

    /** {@code targetcli ...}, printed to the session's output. */
    @Descriptor("configure the SCSI target with targetcli's paths and commands (LIO)")
    public void targetcli(@Descriptor(Targetcli.USAGE) String... args) {
        run(System.out, args);
    }

    synchronized void run(PrintStream out, String... args) {
        new Targetcli(tree, store, out, TargetcliCommand::generatedIqn).run(List.of(args));
    }

    /**
     * rtslib's {@code generate_wwn('iqn')}: the host's name and architecture, then a random
     * serial, under the naming authority LIO uses.
     */
    static String generatedIqn() {
        String host = "localhost";
        try {
            host = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.US_ASCII).strip();
        } catch (java.io.IOException | RuntimeException noProc) {
            // Not Linux: keep localhost.
        }
        String arch = System.getProperty("os.arch", "unknown").replace("amd64", "x86_64");
        String prefix = ("iqn.2003-01.org.linux-iscsi." + host.split("\\.")[0].replace("_", "") + "."
                + arch.replace("_", "")).toLowerCase(Locale.ROOT);
        return prefix + ":sn." + UUID.randomUUID().toString().substring(24);
    }
}
