#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
#include <sys/syscall.h>
static void pg(const char*tag,char*a){
 int pm=open("/proc/self/pagemap",O_RDONLY); uint64_t e; pread(pm,&e,8,((uintptr_t)a/4096)*8); close(pm);
 if(!(e>>63)){printf("%s %p absent\n",tag,a);return;}
 uint64_t pfn=e&((1ULL<<55)-1); int kf=open("/proc/kpageflags",O_RDONLY); uint64_t f; pread(kf,&f,8,pfn*8); close(kf);
 printf("%s %p mlocked=%d unevict=%d head=%d tail=%d lru=%d\n",tag,a,(int)(f>>33&1),(int)(f>>18&1),(int)(f>>15&1),(int)(f>>16&1),(int)(f>>5&1));
}
int main(int argc,char**argv){
 int mode=atoi(argv[1]);
 int fd=open("/tmp/lftest-ext4",O_RDWR|O_CREAT|O_TRUNC,0600); ftruncate(fd,65536);
 char buf[16384]; memset(buf,'x',sizeof buf); pwrite(fd,buf,16384,45056);
 char *p;
 if(mode==0) p=mmap(NULL,8192,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_LOCKED,fd,0xc000);
 else if(mode==1){ p=mmap(NULL,8192,PROT_READ|PROT_WRITE,MAP_SHARED,fd,0xc000); mlockall(MCL_FUTURE); volatile char c=p[0]; (void)c; }
 else if(mode==2){ mlockall(MCL_FUTURE); p=mmap(NULL,8192,PROT_READ|PROT_WRITE,MAP_SHARED,fd,0xc000);}
 else { p=mmap(NULL,12288,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_LOCKED,fd,0xb000);}
 printf("p=%p\n",p); fflush(stdout); syscall(SYS_migrate_pages,0,2,(unsigned long[]){1},(unsigned long[]){1});
 for(int i=0;i<(mode==3?3:2);i++) pg("pg",p+i*4096);
 fflush(stdout); munlockall();
 unlink("/tmp/lftest-ext4");
}
