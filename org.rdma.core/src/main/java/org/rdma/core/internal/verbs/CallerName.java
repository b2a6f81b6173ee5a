package org.rdma.core.internal.verbs;

import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;

/**
 * The owner name the resource tracker records, as the kernel records {@code KBUILD_MODNAME}:
 * the symbolic name of the bundle whose code called into the core.
 */
final class CallerName {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private CallerName() {
    }

    static String find() {
        Class<?> caller = WALKER.walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
                .filter(c -> !c.getPackageName().startsWith("org.rdma.core.internal"))
                .findFirst().orElse(null));
        if (caller == null) {
            return "unknown";
        }
        Bundle b = FrameworkUtil.getBundle(caller);
        return b != null ? b.getSymbolicName() : caller.getPackageName();
    }
}
