#define _GNU_SOURCE
#include <stdio.h>
#include <stdint.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
int main(void){
  char *p = mmap(NULL, 16384, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  for (int i=0;i<4;i++) p[i*4096]=1;
  printf("free %d\n", madvise(p, 16384, MADV_FREE));
  p[0]=2;
  printf("pageout %d\n", madvise(p, 16384, MADV_PAGEOUT));
  int fd=open("/proc/self/pagemap",O_RDONLY);
  for (int i=0;i<4;i++){ uint64_t e; pread(fd,&e,8,((uintptr_t)p/4096+i)*8); printf("page %d present %d\n", i, (int)(e>>63)); }
  return 0;
}
