package io.edp.manager.ui;

import io.edp.manager.api.WithoutDatabase;
import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.view.RedirectView;

/** The operations page: its entry points and what its script needs to know about the signed-in account. */
@RestController
@Hidden // the page's own plumbing, not part of the API
@WithoutDatabase
class PageController {

    @GetMapping("/ui")
    RedirectView page() {
        return new RedirectView("/ui/index.html", true);
    }

    @GetMapping("/ui/")
    RedirectView index() {
        return page();
    }

    /** Who is signed in, whether the actions may be offered, and the CSRF token the page's writes must carry. */
    @GetMapping("/ui/session")
    PageSession session(Authentication account, CsrfToken csrf) {
        boolean operator = account.getAuthorities().stream()
                .anyMatch(authority -> authority.getAuthority().equals("ROLE_OPERATOR"));
        return new PageSession(account.getName(), operator, csrf.getHeaderName(), csrf.getToken());
    }

    record PageSession(String user, boolean operator, String csrfHeader, String csrfToken) {
    }
}
