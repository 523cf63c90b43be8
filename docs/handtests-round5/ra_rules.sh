#!/bin/sh
# ra_rules.sh - the round-5 hand tests (run as root on the 6.18 machine, /tmp
# on ext4, read_ahead_kb 8192): gcc -O0 -Wall rastate.c -o /tmp/rastate && sh ra_rules.sh
# Expected output: ra_rules.out (recorded on 6.18.44).  Legend: rastate.c.
R=${RASTATE:-/tmp/rastate}
echo "## 1 read-around window: a 100-page file is read whole from a fault at page 50 (ra_pages 2048)"
$R trunc 409600 map 0 0 100 r p touch 0 50 1 r obs 100 | sed '/^obs/ s/.*/obs: & (cached pages: '"'"'u'"'"' count below)/'
$R trunc 409600 map 0 0 100 r p touch 0 50 1 r obs 100 | grep obs | tr -cd u | wc -c
echo "## 2 truncating DOWN to an unaligned size leaves the new EOF page cached, not uptodate ('n'), hole or data"
$R trunc 40960 trunc 4196 obs 4
$R pwrite 0 40960 drop trunc 4196 obs 4
$R trunc 40960 trunc 4196 map 0 0 2 r p touch 0 0 2 r
echo "## 3 MADV_PAGEOUT of a dirty order-0 ext4 page: unmapped, stays dirty with PG_reclaim ('r');"
echo "##   fault-around skips it, the fault on it clears the bit"
$R trunc 65536 pwrite 0 4096 map 0 0 16 r s touch 0 0 1 r madv 0 0 1 pageout pres 0 obs 16
$R pwrite 0 65536 drop map 0 0 16 r s touch 0 0 16 r pwrite 20480 4096 madv 0 5 1 pageout obs 16 touch 0 0 16 r obs 16
echo "## 4 pwrite() does not clear it"
$R pwrite 0 65536 drop map 0 0 16 r s touch 0 0 16 r pwrite 20480 4096 madv 0 5 1 pageout pwrite 20480 4096 obs 16
echo "## 5 timing caveat: here (a delalloc block: the page was a hole when written) the page is"
echo "##   under writeback ('W') or clean right after the fault, so page_cache_async_ra() returned"
echo "##   early (folio_test_writeback()) and read nothing; in the recorded traces the pages stayed 'r'"
$R trunc 65536 map 0 0 16 r s touch 0 3 1 r fall p 16384 49152 pwrite 0 4096 touch 0 0 1 r madv 0 0 1 pageout obs 16 touch 0 0 1 r obs 16
