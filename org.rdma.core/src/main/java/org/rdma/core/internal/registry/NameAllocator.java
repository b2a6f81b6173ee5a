package org.rdma.core.internal.registry;

import java.util.Set;
import org.rdma.verbs.Errno;
import org.rdma.verbs.RdmaException;

/**
 * Device names from templates ({@code assign_name()}/{@code alloc_name()}): a template holds at
 * most one {@code %d}, replaced by the lowest index whose name is free; a template without one
 * is the name itself.
 */
final class NameAllocator {
    private static final int MAX_NAME = 64;

    private NameAllocator() {
    }

    /** Whether {@code template} can make names: non-empty, printable, at most one {@code %d}, no other {@code %}. */
    static boolean validTemplate(String template) {
        if (template == null || template.isEmpty() || template.length() > MAX_NAME) {
            return false;
        }
        if (!template.chars().allMatch(c -> c > ' ' && c < 0x7f && c != '/')) {
            return false;
        }
        String rest = template.replaceFirst("%d", "");
        return !rest.contains("%");
    }

    /** The name for {@code template} not in {@code taken}; EEXIST if a fixed name is taken. */
    static String allocate(String template, Set<String> taken) {
        if (!template.contains("%d")) {
            if (taken.contains(template)) {
                throw new RdmaException(Errno.EEXIST, "device name " + template + " is in use");
            }
            return template;
        }
        for (int i = 0; ; i++) {
            String name = template.replace("%d", Integer.toString(i));
            if (!taken.contains(name)) {
                return name;
            }
        }
    }
}
