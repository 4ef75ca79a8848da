package dev.amcp.gateway.it.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium driven through the system's chromedriver (no Selenium Manager downloads), with a fresh
 * profile per browser.
 */
final class Browser implements AutoCloseable {

    static final String CHROMIUM = System.getProperty("it.chromium", "/usr/bin/chromium");
    static final String CHROMEDRIVER = System.getProperty("it.chromedriver", "/usr/bin/chromedriver");

    /** Screenshot files are {@code editor-<name>.png}, the names the docs use. */
    static final String SCREENSHOT_PREFIX = "editor-";

    final ChromeDriver driver;
    final String base;
    private final Path profile;
    private final WebDriverWait wait;

    Browser(String base) throws IOException {
        this.base = base;
        this.profile = Files.createTempDirectory("amcp-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,1000",
                "--lang=en-US", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(Path.of(CHROMEDRIVER).toFile())
                .usingAnyFreePort().build();
        this.driver = new ChromeDriver(service, options);
        this.driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60)).scriptTimeout(Duration.ofSeconds(20));
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(20));
    }

    void open(String path) {
        driver.get(base + path);
    }

    WebElement el(String css) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    boolean present(String css) {
        return !driver.findElements(By.cssSelector(css)).isEmpty();
    }

    String text(String css) {
        return el(css).getText();
    }

    void type(String css, String value) {
        WebElement input = el(css);
        input.clear();
        input.sendKeys(value);
    }

    void click(String css) {
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector(css))).click();
    }

    void select(String css, String value) {
        new org.openqa.selenium.support.ui.Select(el(css)).selectByValue(value);
    }

    /** Replaces the text of the CodeMirror editor that enhances the textarea with this id, by typing into it. */
    void typeInEditor(String textareaId, String text) {
        WebElement content = el(".cm-editor[data-for='" + textareaId + "'] .cm-content");
        content.click();
        content.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        content.sendKeys(text);
    }

    /** The value the form will post for a textarea (CodeMirror copies every change back into it). */
    String fieldValue(String id) {
        return (String) driver.executeScript("return document.getElementById(arguments[0]).value", id);
    }

    /** Waits until the options selected in a select are these (the page fills some in asynchronously). */
    void waitForSelected(String css, java.util.List<String> values) {
        wait.until(d -> new org.openqa.selenium.support.ui.Select(d.findElement(By.cssSelector(css))).getAllSelectedOptions().stream()
                .map(o -> o.getAttribute("value")).toList().equals(values));
    }

    /**
     * Waits until the document at this path has loaded. The address and the ready state are read in one script, so both
     * are the same document's: the address can change before the new page's elements are there, and a check made then
     * reads the page the test is leaving.
     */
    void waitForPath(String pathPrefix) {
        waitForScript("return location.pathname.startsWith(arguments[0]) && document.readyState === 'complete'", pathPrefix);
    }

    /** Waits until the page shows one of these elements (after a click whose answer is the same page). */
    void waitForAny(String... css) {
        wait.until(d -> java.util.Arrays.stream(css).anyMatch(this::present));
    }

    /** Waits until the document whose address contains this text has loaded (a form submitted with GET). */
    void waitForUrlContaining(String text) {
        waitForScript("return location.href.includes(arguments[0]) && document.readyState === 'complete'", text);
    }

    /** Waits until the script answers true; a script cut off by the page being left counts as not yet. */
    private void waitForScript(String script, String argument) {
        wait.until(d -> {
            try {
                return Boolean.TRUE.equals(driver.executeScript(script, argument));
            } catch (org.openqa.selenium.JavascriptException | org.openqa.selenium.StaleElementReferenceException e) {
                return false;
            }
        });
    }

    void login(String user, String password) {
        login(user, password, true);
    }

    /** Signs in from a fresh browser session; {@code expectSignedIn} waits for the editor, else the login page stays. */
    void login(String user, String password, boolean expectSignedIn) {
        open("/admin/assets/admin.css");
        driver.manage().deleteAllCookies();
        open("/admin/servers");
        waitForPath("/admin/login");
        type("#j_username", user);
        type("#j_password", password);
        click("#login-submit");
        if (expectSignedIn) {
            waitForPath("/admin/servers");
        }
    }

    /**
     * Saves the page as {@code editor-<name>.png} in {@code it.screenshots.dir} ({@code target/screenshots} by default;
     * {@code -Dit.screenshots.dir=docs/images} refreshes the docs' images, a relative path being the project's).
     */
    void screenshot(String name) {
        String dir = System.getProperty("it.screenshots.dir");
        if (dir == null || dir.isBlank()) {
            return;
        }
        try {
            Path target = Path.of(System.getProperty("basedir", ".")).resolve(dir).resolve(SCREENSHOT_PREFIX + name + ".png");
            Files.createDirectories(target.getParent());
            Files.write(target, driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException | RuntimeException e) {
            System.err.println("Screenshot " + name + " failed: " + e);
        }
    }

    /** Like {@link #screenshot(String)}, with the page scrolled so that this element is at the top of the window. */
    void screenshot(String name, String showCss) {
        driver.executeScript("document.querySelector(arguments[0]).scrollIntoView({block: 'start'})", showCss);
        screenshot(name);
    }

    @Override
    public void close() {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp profile left behind is harmless
        }
    }
}
