#ifndef MAPSNAP_SYSTEM_SHIMS_H
#define MAPSNAP_SYSTEM_SHIMS_H

/// The processors this process may run on (its CPU affinity, which Slurm
/// and `taskset` set), or 0 when the system cannot tell. One system call
/// (sched_getaffinity), which Swift's Glibc module does not declare.
int mapsnap_affinity_processor_count(void);

#endif
