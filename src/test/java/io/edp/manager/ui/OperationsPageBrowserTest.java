package io.edp.manager.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;

import io.edp.manager.LiveApi;
import io.edp.manager.LiveServerTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The operations page in a real browser: Selenium drives Debian's chromium through its chromedriver
 * ({@code .ci/run} installs both). A viewer signs in with the form, opens a host, and the page's charts follow the
 * traffic started through the API. With {@code -Dedp.ui.screenshot=docs/operations-page.png} it saves what the
 * browser shows at the end. Its own context (a real port) is closed afterwards, so its reconciler does not compete
 * with the shared test context's.
 */
@DirtiesContext
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "edp.security.operator.user=page-operator",
        "edp.security.operator.password={noop}operator-secret",
        "edp.security.viewer.user=page-viewer",
        "edp.security.viewer.password={noop}viewer-secret",
        "edp.engines.mbufs=4096",
        "edp.engines.real-drivers=false"})
class OperationsPageBrowserTest extends LiveServerTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final String OPERATOR = "page-operator";
    private static final String OPERATOR_SECRET = "operator-secret";

    private WebDriver browser;

    @BeforeEach
    void browser() {
        assertThat(Files.isExecutable(CHROMIUM)).as("%s is missing: apt-get install chromium", CHROMIUM).isTrue();
        assertThat(Files.isExecutable(CHROMEDRIVER)).as("%s is missing: apt-get install chromium-driver",
                CHROMEDRIVER).isTrue();
        var options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                // as for any headless run on a closed network: no background connections, no sandbox as root
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--no-first-run",
                        "--window-size=1400,1300");
        var logging = new LoggingPreferences();
        logging.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logging);
        // both named: Selenium Manager would otherwise look for a browser and a driver online
        var service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void close() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aViewerWatchesAHostsChartsFollowTheTrafficAndHasNoActions() throws Exception {
        var hostId = api.hostWithAVm("esx-page", OPERATOR, OPERATOR_SECRET);

        browser.get(api.base() + "/ui");
        assertThat(browser.getCurrentUrl()).as("a page needs a signed-in session").endsWith("/login");
        signIn("page-viewer", "viewer-secret");

        var row = By.cssSelector("#hosts tr[data-host-id='" + hostId + "']");
        await("the host in the list", () -> browser.findElements(row).size(), rows -> rows == 1);
        assertThat(browser.findElement(row).getText()).contains("esx-page", "EDP_STANDARD", "SUCCESS");
        browser.findElement(row).click();

        await("the utilization chart", () -> browser.findElements(By.cssSelector("#utilization-chart canvas")).size(),
                charts -> charts == 1);
        assertThat(browser.findElement(By.id("account")).getText()).isEqualTo("page-viewer (viewer)");
        assertThat(browser.findElements(By.cssSelector("#actions button"))).as("operator actions").isEmpty();

        // enough that the worker is busy more than the 1 % threshold below on a quiet machine (20,000 pps was not)
        api.startTraffic(hostId, 200_000, OPERATOR, OPERATOR_SECRET);
        var chart = browser.findElement(By.id("utilization-chart"));
        await("utilization above zero on the chart", () -> chart.getDomAttribute("data-last-max"),
                max -> max != null && Double.parseDouble(max) > 0);
        await("a hit rate", () -> browser.findElement(By.id("hit-rate")).getText(), rate -> rate.endsWith(" %"));
        await("the traffic run", () -> browser.findElement(By.id("traffic")).getText(),
                text -> text.startsWith("Running on vmnic0: sent "));
        await("the chart to keep moving", () -> Integer.parseInt(chart.getDomAttribute("data-points")),
                points -> points >= 3);
        assertThat(browser.findElements(By.cssSelector("#flows tbody tr"))).hasSize(10);
        assertThat(browser.findElement(By.cssSelector("#queues tbody tr")).getText()).startsWith("vmnic0 0 0");

        // a balancer cycle a second with a threshold of 1 % (a live change): the running traffic overloads the
        // worker, and the balancer's decision appears on the page
        var edp = api.send(api.request("/api/v1/hosts/" + hostId + "/edp", OPERATOR, OPERATOR_SECRET)
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("""
                        {"settings": {"mode": "EDP_STANDARD", "tlbIntervalSeconds": 1, "tlbThresholdPercent": 1}}\
                        """)).build());
        assertThat(edp.statusCode()).as(edp.body()).isEqualTo(200);
        await("a TLB decision on the page", () -> browser.findElement(By.id("tlb-decisions")).getText(),
                decisions -> decisions.contains("OVERLOAD"));

        String screenshot = System.getProperty("edp.ui.screenshot");
        if (screenshot != null) {
            Files.write(Path.of(screenshot), ((TakesScreenshot) browser)
                    .getScreenshotAs(OutputType.BYTES));
        }
        assertThat(consoleErrors()).as("console errors").isEmpty();

        // a viewer's session reads but may not write
        assertThat(fetchStatus("GET", "/api/v1/hosts/" + hostId + "/stats/threads", false)).isEqualTo(200);
        assertThat(fetchStatus("POST", "/api/v1/hosts/" + hostId + "/stats/flow-cache/flush", true)).isEqualTo(403);

        // the cookie session is CSRF-protected: even signing out needs the token
        assertThat(fetchStatus("POST", "/logout", false)).isEqualTo(403);
    }

    @Test
    void anOperatorsActionsCarryTheCsrfTokenAndChangeTheHost() throws Exception {
        var hostId = api.hostWithAVm("esx-operated", OPERATOR, OPERATOR_SECRET);
        signIn(OPERATOR, OPERATOR_SECRET);
        browser.get(api.base() + "/ui/index.html#" + hostId);
        await("the actions", () -> browser.findElements(By.cssSelector("#actions button")).size(),
                buttons -> buttons == 4);

        browser.findElement(By.id("flush-cache")).click();
        await("the flush", () -> browser.findElement(By.id("action-result")).getText(), "done"::equals);
        browser.findElement(By.cssSelector("#mode option[value=LEGACY]")).click();
        browser.findElement(By.id("switch-mode")).click();
        await("the mode switch", () -> api.send(api.request("/api/v1/hosts/" + hostId + "/edp", OPERATOR,
                OPERATOR_SECRET).build()).body(), edp -> edp.contains("\"settings\":{\"mode\":\"LEGACY\""));
        assertThat(consoleErrors()).as("console errors").isEmpty();
    }

    /** Signs in and waits for the page the form leads to: a navigation begun earlier would cancel the sign-in. */
    private void signIn(String user, String password) throws Exception {
        browser.get(api.base() + "/login");
        browser.findElement(By.id("username")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        await("the signed-in page", browser::getCurrentUrl, url -> url.contains("/ui/") && !url.contains("/login"));
    }

    private List<LogEntry> consoleErrors() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
    }

    /** The status of a request the page's session makes from the browser, with or without its CSRF token. */
    private long fetchStatus(String method, String path, boolean withToken) {
        var script = """
                const done = arguments[arguments.length - 1];
                const session = await (await fetch('/ui/session')).json();
                const headers = arguments[2] ? {[session.csrfHeader]: session.csrfToken} : {};
                const response = await fetch(arguments[1], {method: arguments[0], headers});
                done(response.status);""";
        return (Long) ((JavascriptExecutor) browser).executeAsyncScript(
                "(async () => {" + script + "})(...arguments)", method, path, withToken);
    }

    private static <T> T await(String what, LiveApi.Read<T> read, java.util.function.Predicate<T> done)
            throws Exception {
        return LiveApi.await(what, Duration.ofSeconds(20), read, done);
    }
}
