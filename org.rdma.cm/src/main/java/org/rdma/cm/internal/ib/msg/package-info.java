/** The chapter 12 CM message formats (IBTA vol. 1, 12.6), one field table per message. */
package org.rdma.cm.internal.ib.msg;
