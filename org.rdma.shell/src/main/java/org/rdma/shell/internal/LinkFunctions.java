package org.rdma.shell.internal;

import java.util.List;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.Function;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code rdma:link-add} and {@code rdma:link-del}. Their names carry a dash, which no Java
 * method can: Gogo (and Karaf's Gogo support) hands the arguments of a command that is a
 * {@link Function} to it directly instead of looking up a method by name.
 */
public final class LinkFunctions {
    private LinkFunctions() {
    }

    static String[] strings(List<Object> arguments) {
        return arguments.stream().map(String::valueOf).toArray(String[]::new);
    }

    /** {@code rdma:link-add NAME type TYPE [netdev NETDEV] [KEY VALUE]...}. */
    @Component(service = Function.class,
            property = {"osgi.command.scope=rdma", "osgi.command.function=link-add"})
    public static final class Add implements Function {
        private final LinkConfigurations links;

        /** The command over {@code links}. */
        @Activate
        public Add(@Reference LinkConfigurations links) {
            this.links = links;
        }

        @Override
        public Object execute(CommandSession session, List<Object> arguments) throws Exception {
            links.add(strings(arguments));
            return null;
        }
    }

    /** {@code rdma:link-del NAME}. */
    @Component(service = Function.class,
            property = {"osgi.command.scope=rdma", "osgi.command.function=link-del"})
    public static final class Del implements Function {
        private final LinkConfigurations links;

        /** The command over {@code links}. */
        @Activate
        public Del(@Reference LinkConfigurations links) {
            this.links = links;
        }

        @Override
        public Object execute(CommandSession session, List<Object> arguments) throws Exception {
            links.del(strings(arguments));
            return null;
        }
    }
}
