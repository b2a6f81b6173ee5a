package org.rdma.shell.internal.perf;

import java.lang.System.Logger.Level;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.osgi.service.component.annotations.Component;
import org.rdma.verbs.IbClient;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.IbQp;
import org.rdma.verbs.QpAttr;
import org.rdma.verbs.QpAttrMask;
import org.rdma.verbs.QpState;

/**
 * The shell's {@code ib_uverbs} client: the traffic tools run in shell sessions as rdma-core's
 * tools run in processes, and what one run made on one device ({@code struct ib_ucontext}) is
 * attached here. When the device goes, {@link #remove} disassociates every run attached to it
 * ({@code ib_uverbs_remove_one()}, {@code uverbs_destroy_ufile_hw()}): the run's QPs are
 * flushed, so the work it posted completes with {@code WR_FLUSH_ERR} and the run can account
 * for it, and its objects are destroyed, so the core finds nothing of the shell's left to reap.
 * A run that starts building while the device is going away fails with {@code ENODEV}.
 *
 * <p>Runs configured without this client (embedding and tests) are not attached; the core then
 * destroys what they still have on a device that goes.
 *
 * <p>Locking: {@link #contexts} guards itself and is never held while a context is
 * disassociated; a context's own lock orders its building, its release and its disassociation.
 */
@Component(service = {IbClient.class, Uverbs.class}, immediate = true)
public final class Uverbs implements IbClient {
    private static final System.Logger LOG = System.getLogger(Uverbs.class.getName());

    /** What one run made on one device. */
    interface Context {
        /**
         * Flushes the run's QPs, then destroys its objects; the run's own release then has
         * nothing left to destroy. The first failure is thrown after every step was tried.
         */
        void disassociate();
    }

    private final Map<IbDevice, Set<Context>> contexts = new IdentityHashMap<>();

    @Override
    public String name() {
        return "uverbs";
    }

    @Override
    public int add(IbDevice device) {
        return 0;
    }

    /** {@code ib_uverbs_remove_one()}: every run on {@code device} is disassociated before this returns. */
    @Override
    public void remove(IbDevice device, Object clientData) {
        Set<Context> gone;
        synchronized (contexts) {
            gone = contexts.remove(device);
        }
        if (gone == null) {
            return;
        }
        for (Context c : gone) {
            try {
                c.disassociate();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, device.name() + ": disassociating a run left objects to the core", e);
            }
        }
    }

    /**
     * Attaches {@code context} to {@code device}; false once the device is being removed (its
     * {@link #remove} has run or is about to, and would not see the context).
     */
    boolean attach(IbDevice device, Context context) {
        synchronized (contexts) {
            if (!device.isRegistered()) {
                return false;
            }
            contexts.computeIfAbsent(device, d -> new LinkedHashSet<>()).add(context);
            return true;
        }
    }

    /** Detaches a context its run has released. */
    void detach(IbDevice device, Context context) {
        synchronized (contexts) {
            Set<Context> s = contexts.get(device);
            if (s != null && s.remove(context) && s.isEmpty()) {
                contexts.remove(device);
            }
        }
    }

    /** Moves {@code qp} to ERR so that what is posted on it completes with {@code WR_FLUSH_ERR}. */
    static void flush(IbQp qp) {
        try {
            QpAttr a = new QpAttr();
            a.qpState = QpState.ERR;
            qp.modify(a, QpAttrMask.STATE);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "flushing {0} failed: {1}", qp, e.getMessage());
        }
    }
}
