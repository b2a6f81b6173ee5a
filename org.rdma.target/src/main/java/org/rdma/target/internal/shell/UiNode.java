package org.rdma.target.internal.shell;

import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node of targetcli's tree (configshell's {@code ConfigNode}): its name, the summary {@code ls}
 * prints in brackets with its health, what it stands for, and its children in targetcli's order.
 *
 * @param healthy true, false, or null when the summary has no health (targetcli's
 *        {@code summary()} pair)
 */
record UiNode(String name, String summary, Boolean healthy, Ref ref, List<UiNode> children) {
    UiNode {
        children = children.stream().sorted(ORDER).toList();
    }

    UiNode(String name, String summary, Boolean healthy, Ref ref) {
        this(name, summary, healthy, ref, List.of());
    }

    private static final Pattern TRAILING_NUMBER = Pattern.compile("(.*?)(\\d+)$");

    /**
     * configshell sorts children by name with a trailing number compared as a number
     * ({@code lun2} before {@code lun10}).
     */
    static final Comparator<UiNode> ORDER = Comparator.comparing((UiNode n) -> stem(n.name()))
            .thenComparing(n -> number(n.name()));

    private static String stem(String name) {
        Matcher m = TRAILING_NUMBER.matcher(name);
        return m.matches() ? m.group(1) : name;
    }

    private static java.math.BigInteger number(String name) {
        Matcher m = TRAILING_NUMBER.matcher(name);
        return m.matches() ? new java.math.BigInteger(m.group(2)) : java.math.BigInteger.ZERO;
    }

    UiNode child(String childName) {
        for (UiNode c : children) {
            if (c.name().equals(childName)) {
                return c;
            }
        }
        return null;
    }
}
