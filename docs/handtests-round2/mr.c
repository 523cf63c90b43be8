#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
static void drain(void){ syscall(SYS_migrate_pages,0,2,(unsigned long[]){1},(unsigned long[]){1}); }
static void pg(const char*tag,char*a){
 int pm=open("/proc/self/pagemap",O_RDONLY); uint64_t e; pread(pm,&e,8,((uintptr_t)a/4096)*8); close(pm);
 if(!(e>>63)){printf("%s %p absent\n",tag,a);return;}
 uint64_t pfn=e&((1ULL<<55)-1); int kf=open("/proc/kpageflags",O_RDONLY); uint64_t f; pread(kf,&f,8,pfn*8); close(kf);
 printf("%s %p mlocked=%d unevict=%d lru=%d\n",tag,a,(int)(f>>33&1),(int)(f>>18&1),(int)(f>>5&1));
}
int main(int argc,char**argv){
 int mode=atoi(argv[1]);
 char *p=mmap(NULL,0x10000,PROT_NONE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0); munmap(p,0x10000);
 char *a=mmap(p,28672,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_FIXED|MAP_ANONYMOUS|MAP_POPULATE|MAP_LOCKED,-1,0);
 drain();
 char *r;
 if(mode==0) r=mremap(a,4096,28672,MREMAP_MAYMOVE|MREMAP_FIXED,a+4096);
 else { munmap(a+4096,24576); if(mode==2) drain(); r=mremap(a,4096,28672,MREMAP_MAYMOVE|MREMAP_FIXED,a+4096);} 
 drain();
 printf("r=%p\n",r);
 for(int i=0;i<7;i++) pg("pg",r+i*4096);
 fflush(stdout);
}
