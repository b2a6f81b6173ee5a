package org.rdma.target.internal.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.rdma.scsi.TaskAttribute;

/**
 * The task set of a logical unit (SAM-5 8.6, the unrestricted reordering of the control mode
 * page's QUEUE ALGORITHM MODIFIER 1; LIO's {@code target_handle_task_attr()} and
 * {@code transport_complete_task_attr()}): HEAD OF QUEUE runs at once; ORDERED waits for every
 * task admitted before it and holds back every later one but HEAD OF QUEUE; SIMPLE runs unless an
 * ORDERED task runs or waits before it.
 *
 * @param <T> the task type
 */
final class TaskSet<T> {
    private final Set<T> active = new HashSet<>();
    private final Deque<T> delayed = new ArrayDeque<>();
    private final java.util.Map<T, TaskAttribute> attrs = new java.util.HashMap<>();
    private T orderedActive;

    /** Admits a task; true when it may run now, else it waits in the delayed queue. */
    synchronized boolean admit(T task, TaskAttribute attr) {
        attrs.put(task, attr);
        boolean run = switch (attr) {
            case HEAD_OF_QUEUE -> true;
            case ORDERED -> active.isEmpty() && delayed.isEmpty();
            default -> orderedActive == null && delayed.isEmpty();
        };
        if (run) {
            start(task, attr);
        } else {
            delayed.addLast(task);
        }
        return run;
    }

    private void start(T task, TaskAttribute attr) {
        active.add(task);
        if (attr == TaskAttribute.ORDERED) {
            orderedActive = task;
        }
    }

    /** A running task completed: returns the delayed tasks that may run now, in order. */
    synchronized List<T> complete(T task) {
        active.remove(task);
        attrs.remove(task);
        if (task == orderedActive) {
            orderedActive = null;
        }
        return drain();
    }

    private List<T> drain() {
        List<T> ready = new ArrayList<>();
        while (!delayed.isEmpty() && orderedActive == null) {
            T head = delayed.peekFirst();
            TaskAttribute attr = attrs.get(head);
            if (attr == TaskAttribute.ORDERED && !active.isEmpty()) {
                break;
            }
            delayed.pollFirst();
            start(head, attr);
            ready.add(head);
        }
        return ready;
    }

    /**
     * Removes tasks that have not started (task management aborts them); returns the delayed
     * tasks that may run now that they are gone.
     */
    synchronized List<T> removeWaiting(java.util.function.Predicate<T> which, List<T> removed) {
        for (var it = delayed.iterator(); it.hasNext();) {
            T t = it.next();
            if (which.test(t)) {
                it.remove();
                attrs.remove(t);
                removed.add(t);
            }
        }
        return drain();
    }
}
