# Installing elvkit the way admins do (issue 5): the ioschedctl tool and the
# man pages (make install / uninstall, honouring DESTDIR and PREFIX), and the
# kernel modules through DKMS (make dkms-install / dkms-remove, root).
#   make install [DESTDIR=...] [PREFIX=/usr]
#   make dkms-install [KVER=release]   default: the running kernel
#   make dkms-remove [KVER=release]    default: every kernel, source included
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man

.PHONY: install uninstall dkms-install dkms-remove

install:
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man7
	sed 's/@VERSION@/$(VERSION)/' admin/ioschedctl >$(DESTDIR)$(SBINDIR)/ioschedctl
	chmod 0755 $(DESTDIR)$(SBINDIR)/ioschedctl
	sed 's/@VERSION@/$(VERSION)/' admin/man/ioschedctl.8 >$(DESTDIR)$(MANDIR)/man8/ioschedctl.8
	sed 's/@VERSION@/$(VERSION)/' admin/man/elvkit.7 >$(DESTDIR)$(MANDIR)/man7/elvkit.7
	chmod 0644 $(DESTDIR)$(MANDIR)/man8/ioschedctl.8 $(DESTDIR)$(MANDIR)/man7/elvkit.7

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/ioschedctl $(DESTDIR)$(MANDIR)/man8/ioschedctl.8 \
		$(DESTDIR)$(MANDIR)/man7/elvkit.7

dkms-install:
	scripts/dkms.sh install $(KVER)

# Without KVER on the command line: remove from every kernel.
dkms-remove:
	scripts/dkms.sh remove $(if $(filter file undefined,$(origin KVER)),--all,$(KVER))
