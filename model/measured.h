/*
 * measured.h - VMSIM_MEASURED marks an entry point that `make bench`
 * counts instructions from (tools/bench.sh section 13: callgrind collects
 * only inside the functions it names).  The mark keeps the function out
 * of line in every build, the link-time optimised one included, so that
 * it is entered by a call the count can see.  gcc may still replace it by
 * a specialised clone (F.constprop.0, F.isra.0), which the bench counts
 * under F's name; forbidding those too (noclone) cost the fault path 15
 * instructions a page and the plain strace log its 7% (docs/performance.md).
 * These are calls across the model's or the reader's interface, made once
 * a batch or an event, so keeping them out of line costs nothing measured.
 *
 * Owns: the mark that keeps a measured entry point a function of its name.
 * May call: nothing.
 */
#ifndef VMSIM_MEASURED_H
#define VMSIM_MEASURED_H

#define VMSIM_MEASURED __attribute__((noinline))

#endif
